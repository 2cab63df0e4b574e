import { actionParams } from './common.js';
import { defineAction, result } from './define.js';

/**
 * Issue 14, operator home (`/adminNewStatr/home`): the platform at a glance. Operator only
 * (role 15). Rates are computed on the server from `ingest_minutes` (every instance's per-minute
 * counts) and `action_log`; docs/operator/home.md.
 */

/** One hour of the last 24 (oldest first); `start` is the hour's first instant, epoch ms (UTC hours). */
export interface OperatorHomeIngestHour {
  start: number;
  frames: number;
  points: number;
}

export interface OperatorHomeActionHour {
  start: number;
  calls: number;
  errors: number;
}

/** An action of the action log over the last 24 h, by its p99 duration (nearest rank). */
export interface OperatorHomeSlowAction {
  action: string;
  calls: number;
  p99Ms: number;
  maxMs: number;
  avgMs: number;
}

/** A background job of the `jobs` table (lease per job). */
export interface OperatorHomeJob {
  name: string;
  /** Epoch ms, null before its first run. */
  lastRunAt: number | null;
  /** Empty when the last run succeeded. */
  lastError: string;
  /** Epoch ms until which an instance holds the lease. */
  leaseUntil: number;
}

export interface OperatorHomeDat {
  /** Server time of the figures, epoch ms. */
  at: number;
  accounts: { manufacturers: number; distributors: number; owners: number };
  plants: number;
  dataloggers: { total: number; online: number; offline: number };
  /** `byStatus[s]`: devices of status s (DEVICE_STATUS: 0 normal, 1 offline, 2 fault, 3 standby, 4 warning, 5, 6). */
  devices: { total: number; byStatus: number[] };
  ingest: {
    /** Over the last complete minute, every instance summed. */
    framesPerSec: number;
    pointsPerSec: number;
    /** Over the last 24 h. */
    frames24h: number;
    points24h: number;
    framesPerSec24h: number;
    pointsPerSec24h: number;
    /** Server instances that counted frames in the last 10 minutes. */
    instances: number;
    hours: OperatorHomeIngestHour[];
  };
  actions: {
    /** Calls per minute over the last 5 minutes. */
    callsPerMin: number;
    /** Share (0..1) of the last 5 minutes' calls that answered an error (err ≠ 0). */
    errorRate: number;
    calls24h: number;
    errors24h: number;
    errorRate24h: number;
    hours: OperatorHomeActionHour[];
    /** Top 10 by p99 duration over the last 24 h. */
    slowest: OperatorHomeSlowAction[];
  };
  storage: { engine: 'sqlite' | 'postgres'; bytes: number };
  queues: {
    /** mail_queue rows not yet sent (queued, outbox, claimed, sending). */
    mailPending: number;
    /** mail_queue rows given up (failed, unconfirmed). */
    mailFailed: number;
    /** export_files being built (status 0). */
    exporting: number;
    /** Upgrade tasks in progress (status 0) waiting for their datalogger, and transferring or flashing. */
    upgradesWaiting: number;
    upgradesRunning: number;
    jobs: OperatorHomeJob[];
  };
}

export const queryOperatorHome = defineAction({
  name: 'queryOperatorHome',
  summary:
    'Operator: the platform at a glance — account, plant, datalogger and device counts; ingest rate (frames/s, datapoints/s) now and over 24 h; action calls and error rate; storage used; the 10 slowest actions by p99 over 24 h; mail, export, upgrade queues and jobs. OperatorHomeDat.',
  params: actionParams({}),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<OperatorHomeDat>(),
});
