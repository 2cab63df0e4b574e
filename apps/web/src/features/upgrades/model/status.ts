/**
 * What the upgrade screens show of a task (issue 13; docs/firmware/contract.md): the outcome of
 * FIRMWARE_UPGRADE_STATUS in the user's words (a running task whose datalogger is offline is
 * "offline / waiting"), progress 0..1000 as a percentage with one decimal, the answer of a start
 * request (UPGRADE_REQUEST_RESULT), and when a list must keep polling.
 */
import {
  BAUD_RATES,
  FIRMWARE_UPGRADE_STATUS,
  UPGRADE_PROGRESS_MAX,
  UPGRADE_REQUEST_RESULT,
  firmwareTarget,
} from '@sunwatch/protocol';

/** Outcome keys (`upgrades:status.<key>`). */
export type OutcomeKey =
  'running' | 'waiting' | 'exception' | 'failed' | 'success' | 'cancelled' | 'notInUpgrade' | 'alreadyUpgrading';

export function outcomeKey(status: number, phase = ''): OutcomeKey {
  switch (status) {
    case FIRMWARE_UPGRADE_STATUS.running:
      return phase === 'waiting' ? 'waiting' : 'running';
    case FIRMWARE_UPGRADE_STATUS.exception:
      return 'exception';
    case FIRMWARE_UPGRADE_STATUS.failed:
      return 'failed';
    case FIRMWARE_UPGRADE_STATUS.success:
      return 'success';
    case FIRMWARE_UPGRADE_STATUS.cancelled:
      return 'cancelled';
    default:
      return 'notInUpgrade';
  }
}

/** antd Tag colour of an outcome. */
export const OUTCOME_COLOR: Record<OutcomeKey, string> = {
  running: 'processing',
  waiting: 'default',
  exception: 'warning',
  failed: 'error',
  success: 'success',
  cancelled: 'default',
  notInUpgrade: 'default',
  alreadyUpgrading: 'processing',
};

/** Progress 0..1000 as a percentage with one decimal ("45.3"); out-of-range values are clamped. */
export function progressPercent(progress: number): string {
  const p = Math.min(UPGRADE_PROGRESS_MAX, Math.max(0, Math.round(progress)));
  return (p / 10).toFixed(1);
}

/** antd Progress `status` of a task. */
export function progressStatus(status: number): 'active' | 'success' | 'exception' | 'normal' {
  if (status === FIRMWARE_UPGRADE_STATUS.running) return 'active';
  if (status === FIRMWARE_UPGRADE_STATUS.success) return 'success';
  if (status === FIRMWARE_UPGRADE_STATUS.failed || status === FIRMWARE_UPGRADE_STATUS.exception) return 'exception';
  return 'normal';
}

export { isRunning, pollInterval } from './running';

/** Keys of a start request's `dat.ret` (`upgrades:ret.<key>`). */
export type RetKey = 'accepted' | 'failedToStart' | 'offline' | 'alreadyUpgrading';

export function retKey(ret: number): RetKey {
  switch (ret) {
    case UPGRADE_REQUEST_RESULT.accepted:
      return 'accepted';
    case UPGRADE_REQUEST_RESULT.offline:
      return 'offline';
    case UPGRADE_REQUEST_RESULT.alreadyUpgrading:
      return 'alreadyUpgrading';
    default:
      return 'failedToStart';
  }
}

/** Whether a firmware type upgrades a device behind the datalogger (needs type and baud rate). */
export function isDeviceFirmware(type: number): boolean {
  return firmwareTarget(type) === 1;
}

export const BAUD_RATE_CHOICES: readonly number[] = BAUD_RATES;

/** The batch selection limit (firmwareUpgradeBatch: at most 256 PNs). */
export const MAX_SELECTION = 256;

/** PNs typed or pasted: split on commas, spaces and new lines, upper-cased, without repeats. */
export function parsePnList(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const pn = raw.trim().toUpperCase();
    if (pn && !out.includes(pn)) out.push(pn);
  }
  return out;
}

export interface BatchForm {
  firmware: string;
  type: number;
  baudRate?: number;
  devcode?: number;
  mode: 'selection' | 'filter';
  selection: readonly string[];
  plantid?: number;
  /** Datalogger status: 0 online, 1 offline. */
  status?: number;
  model?: string;
  version?: string;
}

/** Why a batch form cannot be sent (`upgrades:start.invalid.<key>`), or undefined. */
export function batchFormProblem(
  f: BatchForm,
): 'firmware' | 'baudRate' | 'devcode' | 'selection' | 'tooMany' | undefined {
  if (!f.firmware.trim()) return 'firmware';
  if (isDeviceFirmware(f.type)) {
    if (!f.baudRate) return 'baudRate';
    if (f.devcode === undefined || !Number.isInteger(f.devcode)) return 'devcode';
  }
  if (f.mode === 'selection') {
    if (f.selection.length === 0) return 'selection';
    if (f.selection.length > MAX_SELECTION) return 'tooMany';
  }
  return undefined;
}

/** Wire parameters of firmwareUpgradeBatch for a valid form. */
export function batchParams(f: BatchForm) {
  const device = isDeviceFirmware(f.type);
  const p: {
    firmware: string;
    type: number;
    baudRate?: number;
    devcode?: number;
    pn?: string;
    plantid?: number;
    status?: number;
    model?: string;
    version?: string;
  } = { firmware: f.firmware.trim(), type: f.type };
  if (device) {
    p.baudRate = f.baudRate;
    p.devcode = f.devcode;
  }
  if (f.mode === 'selection') {
    p.pn = f.selection.join(',');
  } else {
    if (f.plantid) p.plantid = f.plantid;
    if (f.status !== undefined) p.status = f.status;
    if (f.model?.trim()) p.model = f.model.trim();
    if (f.version?.trim()) p.version = f.version.trim();
  }
  return p;
}
