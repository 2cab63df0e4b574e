import { UPLOAD_RULES, type UploadRule } from './define.js';

/** Constants of the datalogger management actions (dataloggers-admin.ts; issue 10). */

/** The batch datalogger file: xlsx only (spec §5 "Uploads and files"), column A PN, column B alias. */
export const COLLECTOR_SHEET_RULE: UploadRule = { ...UPLOAD_RULES.sheet, extensions: ['.xlsx'] };

/** `dat.ret` of restartCollector (vendor-actions.md §2 "Restart result"). */
export const RESTART_RESULT = {
  /** The datalogger acknowledged that it will restart. */
  ACKNOWLEDGED: 0,
  /** Command issued (not used: the platform always waits for the acknowledgement). */
  ISSUED: 1,
  /** The datalogger refused the command (negative acknowledgement). */
  FAILED: 2,
} as const;

/** Kinds of the datalogger log (migration 0011 `datalogger_events.kind`; translated on the web). */
export const COLLECTOR_EVENT_KINDS = [
  'connect',
  'disconnect',
  'auth_fail',
  'offline',
  'register',
  'command',
  'ack',
  'timeout',
  'error',
] as const;
export type CollectorEventKind = (typeof COLLECTOR_EVENT_KINDS)[number];
