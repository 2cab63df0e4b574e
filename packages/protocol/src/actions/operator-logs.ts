import { z } from 'zod';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import { COLLECTOR_EVENT_KINDS, type CollectorEventKind } from './dataloggers-admin-params.js';
import { defineAction, result } from './define.js';
import { COLLECTOR_LOG_RESULTS, LOG_RETENTION_DAYS, SAMPLE_RETENTION_DAYS } from './operator-logs-params.js';

/**
 * Issue 14, operator back office, `log` and `actionLog` (docs/operator/logs.md): the datalogger
 * connection log of the whole platform (connections, disconnections, refused sign-ins with their
 * reason, commands, acknowledgements, timeouts), the action log (every call: who, action, params
 * with secrets redacted, err, duration, address, client) and how long both are kept. Operator only
 * (role 15). The vendor pages name no action for these pages; the names follow the vendor style.
 */

/** One entry of the platform's datalogger log. */
export interface OperatorCollectorLogRow {
  id: number;
  /** Epoch ms. */
  ts: number;
  pn: string;
  kind: CollectorEventKind;
  /** Command kind for command/ack/timeout; '' otherwise. */
  cmd: string;
  /** 0 done; else the err code. */
  result: number;
  /** Who sent the command ('' for the datalogger's own events). */
  usr: string;
  /** Free text; for `auth_fail` an AUTH_FAIL_REASONS value first. */
  detail: string;
}

/** One call of the action log. `params` is the stored JSON with every secret value replaced by `***`. */
export interface ActionLogRow {
  id: number;
  /** Epoch ms. */
  ts: number;
  accountId: number | null;
  /** '' for a call without an account (a refused sign-in, a public action). */
  usr: string;
  action: string;
  /** Client address. */
  ip: string;
  userAgent: string;
  /** The call's parameters (secrets `***`); a string when the stored text was cut at its length cap. */
  params: Record<string, unknown> | string;
  err: number;
  durationMs: number;
}

export interface LogRetention {
  /** Days the action log keeps. */
  actionLogDays: number;
  /** Days the datalogger log keeps. */
  collectorLogDays: number;
  /** Days the raw samples keep (issue 16; SAMPLE_RETENTION_DAYS bounds). Day rollups are kept for ever. */
  sampleDays: number;
  /** Where each value comes from: the operator's setting, else the environment seed / default. */
  source: { actionLog: 'setting' | 'default'; collectorLog: 'setting' | 'default'; samples: 'setting' | 'default' };
  /**
   * The values used without a setting (ACTION_LOG_RETENTION_DAYS / COLLECTOR_LOG_RETENTION_DAYS, else 90;
   * SAMPLE_RETENTION_DAYS, else 730).
   */
  defaults: { actionLogDays: number; collectorLogDays: number; sampleDays: number };
  /** Last run of the prune job (epoch ms; null never) and its error ('' none). */
  lastPruneAt: number | null;
  lastPruneError: string;
}

/** Comma-separated kinds of the datalogger log (`connect,auth_fail`); empty = every kind. */
const kindList = () =>
  z
    .string()
    .max(200)
    .transform((s, c) => {
      const kinds = [
        ...new Set(
          s
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean),
        ),
      ];
      for (const k of kinds) {
        if (!(COLLECTOR_EVENT_KINDS as readonly string[]).includes(k)) {
          c.addIssue({ code: 'custom', message: `unknown kind ${k}` });
          return z.NEVER;
        }
      }
      return kinds as CollectorEventKind[];
    });

const epochMs = () => wireInt().min(0);
const retentionDays = () => wireInt().min(LOG_RETENTION_DAYS.min).max(LOG_RETENTION_DAYS.max);
const sampleDays = () => wireInt().min(SAMPLE_RETENTION_DAYS.min).max(SAMPLE_RETENTION_DAYS.max);

export const queryCollectorLogs = defineAction({
  name: 'queryCollectorLogs',
  summary:
    'Operator: the datalogger log of the whole platform from `from` to `to` (epoch ms, `to` excluded, at most COLLECTOR_LOGS_MAX_DAYS days: else 6), newest first, paged on the server. `pn` matches PNs containing it (upper-cased), or exactly with `exact=1`; `kinds` (comma-separated COLLECTOR_EVENT_KINDS) and `result` (ok/failed) filter. {total,page,pagesize,log:[OperatorCollectorLogRow]}.',
  params: actionParams({
    pn: z.string().trim().max(32).optional(),
    exact: wireBool().optional(),
    from: epochMs(),
    to: epochMs(),
    kinds: kindList().optional(),
    result: z.enum(COLLECTOR_LOG_RESULTS).optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; log: OperatorCollectorLogRow[] }>(),
});

export const queryActionLog = defineAction({
  name: 'queryActionLog',
  summary:
    'Operator: the action log, newest first, paged on the server. `usr` and `actionName` match exactly (case-insensitive for `usr`), or as a prefix when they end with `*` (`action` itself names the called action on the wire); `errOnly=1` keeps failed calls, `err` one err code; `from`/`to` (epoch ms, `to` excluded) and `ip` (prefix) filter. Parameters come back with every secret value replaced by `***`. {total,page,pagesize,log:[ActionLogRow]}.',
  params: actionParams({
    usr: z.string().trim().max(65).optional(),
    actionName: z.string().trim().max(129).optional(),
    errOnly: wireBool().optional(),
    err: wireInt().min(0).optional(),
    from: epochMs().optional(),
    to: epochMs().optional(),
    ip: z.string().trim().max(64).optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; log: ActionLogRow[] }>(),
});

export const queryLogRetention = defineAction({
  name: 'queryLogRetention',
  summary:
    'Operator: how many days the action log, the datalogger log and the raw samples keep, and the last prune run. LogRetention.',
  params: actionParams({}),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<LogRetention>(),
});

export const setLogRetention = defineAction({
  name: 'setLogRetention',
  summary:
    'Operator: sets the days kept (LOG_RETENTION_DAYS.min…max) of the action log (`actionLogDays`) and/or the datalogger log (`collectorLogDays`), and/or of the raw samples (`sampleDays`, SAMPLE_RETENTION_DAYS.min…max; day rollups stay for ever); older rows go at the next prune run (hourly). Audited. 7 when none is given, 271 when nothing changes. LogRetention.',
  params: actionParams({
    actionLogDays: retentionDays().optional(),
    collectorLogDays: retentionDays().optional(),
    sampleDays: sampleDays().optional(),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<LogRetention>(),
});
