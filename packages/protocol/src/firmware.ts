/**
 * Firmware and upgrade enums shared by server, web and simulator (issue 13;
 * docs/firmware/contract.md; vendor-actions.md §2 for the two vendor enums).
 */

/** Firmware type (spec §3 Firmware). Types 0–1 upgrade the datalogger, 2–5 a device behind it. */
export const FIRMWARE_TYPES = [
  { id: 0, key: 'general', target: 0 },
  { id: 1, key: 'communication', target: 0 },
  { id: 2, key: 'control1', target: 1 },
  { id: 3, key: 'control2', target: 1 },
  { id: 4, key: 'bms', target: 1 },
  { id: 5, key: 'slaveMcu', target: 1 },
] as const;
export type FirmwareTypeId = (typeof FIRMWARE_TYPES)[number]['id'];
export type FirmwareTypeKey = (typeof FIRMWARE_TYPES)[number]['key'];

/** Whether a firmware type upgrades the datalogger itself (0) or a device behind it (1). */
export function firmwareTarget(type: number): 0 | 1 {
  return FIRMWARE_TYPES.find((t) => t.id === type)?.target ?? 0;
}

/** Baud rates a device upgrade may use (RS-485). */
export const BAUD_RATES = [2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;

/** `dat.ret` of firmwareUpgradeCollector (vendor-actions.md §2). */
export const UPGRADE_REQUEST_RESULT = {
  accepted: 0,
  failedToStart: 1,
  offline: 2,
  alreadyUpgrading: 3,
} as const;
export type UpgradeRequestResult = (typeof UPGRADE_REQUEST_RESULT)[keyof typeof UPGRADE_REQUEST_RESULT];

/** States of a batch (`upgrade_batches.state`, queryFirmwareUpgradeBatch `state`). */
export const UPGRADE_BATCH_STATE = {
  /** The background job still creates the batch's tasks, page by page. */
  materialising: 'materialising',
  /** Every target has its task or was refused. */
  ready: 'ready',
  /** The job gave up (its owner lost the right, the firmware was deleted or is no longer signed). */
  failed: 'failed',
} as const;

/** `dat.status` of queryCollectorFirmwareUpgradeProgress (vendor-actions.md §2). */
export const FIRMWARE_UPGRADE_STATUS = {
  running: 0,
  exception: 1,
  failed: 2,
  success: 3,
  cancelled: 4,
  notInUpgrade: 5,
} as const;
export type FirmwareUpgradeStatus = (typeof FIRMWARE_UPGRADE_STATUS)[keyof typeof FIRMWARE_UPGRADE_STATUS];

/** `progress` runs 0..1000 (0 %..100.0 %). */
export const UPGRADE_PROGRESS_MAX = 1000;

/** Upgrade strategy status (spec §4): derived from its window and cancellation; cancelling is final. */
export const STRATEGY_STATUS = { notStarted: 0, inEffect: 1, expired: 2, cancelled: 3 } as const;
export type StrategyStatus = (typeof STRATEGY_STATUS)[keyof typeof STRATEGY_STATUS];

/** The status of a strategy at `now` (ms). */
export function strategyStatusAt(s: { starts_at: number; ends_at: number; cancelled_at: number | null }, now: number): StrategyStatus {
  if (s.cancelled_at !== null) return STRATEGY_STATUS.cancelled;
  if (now < s.starts_at) return STRATEGY_STATUS.notStarted;
  if (now >= s.ends_at) return STRATEGY_STATUS.expired;
  return STRATEGY_STATUS.inEffect;
}

/** Upgrade method of a strategy: force (upgraded without asking) or suggested (the owner is reminded and chooses). */
export const STRATEGY_METHOD = { force: 0, suggested: 1 } as const;
export type StrategyMethod = (typeof STRATEGY_METHOD)[keyof typeof STRATEGY_METHOD];

/** Per-device result of a strategy: 0 not upgraded, 1 upgrading, 2 succeeded, 3 failed. */
export const STRATEGY_DEVICE_RESULT = { notUpgraded: 0, upgrading: 1, success: 2, failed: 3 } as const;

/**
 * Why an upgrade task failed or waits (issue 13, G4): a code stored in `upgrade_tasks.error`
 * as `reason:<code>` or `reason:<code>|<detail>` (the detail is the datalogger's own words,
 * never translated), translated at read time in the reader's language (`upgradeReasonText`,
 * catalogue keys `upgradeReason.<code>`). A stored text without the prefix (rows written before
 * the codes) is shown as it is.
 */
export const UPGRADE_REASONS = [
  /** The firmware was deleted, or lost its signature, before the transfer. */
  'notDistributable',
  /** The datalogger refused to begin (detail: its answer). */
  'refusedByDatalogger',
  /** The datalogger refused a chunk (detail: its answer). */
  'chunkRefused',
  /** The datalogger refused the image after the transfer: checksum or signature (detail). */
  'imageRefused',
  /** The datalogger reported a failed flash (detail: its words, if any). */
  'flashFailed',
  /** No report from the datalogger while flashing, within the timeout. */
  'noFlashReport',
  /** Waiting: the datalogger is offline; resumes when it is back. */
  'offline',
  /** Waiting: the datalogger did not answer; resumes on the next sweep. */
  'noAnswer',
  /** Waiting: the server instance driving the transfer stopped; another one resumes it. */
  'instanceStopped',
  /** A start that waited for the datalogger's answer to `upgrade_begin` got none (ret 1; detail 'offline' when it dropped). */
  'beginNoAnswer',
  /** Cancelled by hand (detail: who; empty for the platform). Recorded in the operation history. */
  'cancelled',
] as const;
export type UpgradeReason = (typeof UPGRADE_REASONS)[number];

const REASON_PREFIX = 'reason:';

/** The stored form of a reason: `reason:<code>[|<detail>]`, at most 200 characters. */
export function encodeUpgradeReason(code: UpgradeReason, detail?: string | number | null): string {
  const d = detail === undefined || detail === null ? '' : String(detail).trim();
  return `${REASON_PREFIX}${code}${d ? `|${d}` : ''}`.slice(0, 200);
}

/** The code and detail of a stored reason; null for '' and for legacy free text. */
export function decodeUpgradeReason(stored: string | null | undefined): { code: UpgradeReason; detail: string } | null {
  if (!stored || !stored.startsWith(REASON_PREFIX)) return null;
  const rest = stored.slice(REASON_PREFIX.length);
  const bar = rest.indexOf('|');
  const code = (bar < 0 ? rest : rest.slice(0, bar)) as UpgradeReason;
  if (!UPGRADE_REASONS.includes(code)) return null;
  return { code, detail: bar < 0 ? '' : rest.slice(bar + 1) };
}
