import type { DeviceDefinition, Heartbeat, IngestDevice } from '@sunwatch/protocol';
import type { IngestLimitsConfig } from '../../config.js';
import type { BadReason } from './metrics.js';

/** Types shared by the pieces of the ingestion path (façade `IngestService`, checker, queue, writer). */

export interface IngestOptions {
  batchMs: number;
  maxBatch: number;
  /** Frames waiting beyond this: HTTP gets "busy", MQTT waits (its PUBACK is delayed). */
  maxQueue: number;
  /** Frame size limits and the timestamp window (config `telemetry.limits`). */
  limits: IngestLimitsConfig;
  /** Sample rows per write transaction (bounds how long one SQLite commit holds the event loop). */
  maxBatchRows?: number;
}

export interface IngestResult {
  ok: boolean;
  reason?: BadReason;
  detail?: string;
  /** Samples newly stored / already present (resends) / device entries rejected (always 0: a bad entry refuses the frame). */
  stored: number;
  duplicates: number;
  rejected: number;
}

export interface DataloggerEntry {
  id: number;
  pn: string;
  tokenHash: string | null;
  projectId: number | null;
  /** Seconds east of UTC for local days: the plant's, else the datalogger's. */
  tz: number;
  /** First registration (epoch ms): the backfill window starts INGEST_BACKFILL_DAYS before it. */
  createdAt: number;
  /** The datalogger's type code (devcode bindings by type, issue 14). */
  typeCode?: string;
  expires: number;
}

/** A device row: `id` is 0 until the write transaction that registers it sets it. */
export interface DeviceEntry {
  id: number;
  dataloggerId: number;
  def: DeviceDefinition;
  expires: number;
  /**
   * The firmware version stored in the device row, as far as this instance knows (read with the
   * row, updated after each commit that changed it): a frame's `fw` is written only when it differs.
   */
  firmware?: string;
}

/** One device entry of a frame, validated and decoded on arrival. */
export interface PreparedDevice {
  dev: IngestDevice;
  def: DeviceDefinition;
  values: Record<string, number>;
  data: Uint8Array;
  /** Number of values. */
  n: number;
}

export type FrameKind = 'data' | 'heartbeat';

/** A whole frame, checked and decoded: what the queue holds. */
export interface CheckedFrame {
  dl: DataloggerEntry;
  ts: number;
  heartbeat?: Heartbeat;
  devices: PreparedDevice[];
}

export type Checked =
  ({ ok: true } & CheckedFrame) | { ok: false; reason: BadReason; detail: string; dl?: DataloggerEntry };

/** A queued frame: answered (`resolve`) once its batch committed or failed. */
export interface Pending extends CheckedFrame {
  kind: FrameKind;
  pn: string;
  receivedAt: number;
  result: IngestResult;
  resolve: (r: IngestResult) => void;
}

/** Yields to the event loop (other tenants' HTTP calls run in between). */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
