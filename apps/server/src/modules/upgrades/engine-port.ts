/**
 * The seam between the upgrade engine (modules/upgrades, which drives transfers to dataloggers
 * over MQTT) and what starts upgrades: the vendor actions, batches, cloud upgrades, and the
 * strategies' rollout job (modules/upgrade-strategies). docs/firmware/contract.md.
 *
 * Outcomes are read from `upgrade_tasks` (status, progress, ended_at), never from in-process
 * events alone: several server instances share the work, and a task may end on another one.
 */

/** What to upgrade: the datalogger itself (target 0) or one device behind it (target 1). */
export type UpgradeTarget =
  { pn: string; target: 0 } | { pn: string; target: 1; devcode: number; devaddr: number; sn: string };

export interface StartUpgradeRequest {
  target: UpgradeTarget;
  /** `firmwares.id` (not its public code). */
  firmwareId: number;
  /** FIRMWARE_TYPES; for device upgrades required with `baudRate`. */
  fwType?: number;
  baudRate?: number;
  /** Who asked (audit, history); accountId null for the platform's own jobs. */
  by: { accountId: number | null; usr: string };
  strategyId?: number;
  batchId?: number;
  /**
   * true: an offline datalogger gets a waiting task that starts when it reconnects (batches,
   * strategies); false (the vendor action): answer ret 2 and create nothing.
   */
  queueIfOffline?: boolean;
  /**
   * A start that drives at once (datalogger online) answers after the datalogger answered
   * `upgrade_begin` (default): refused or silent within `UPGRADE_BEGIN_WAIT_MS`, the task ends and
   * the answer is ret 1. false: answer 0 at once and let the transfer run (a job starting many
   * targets in a row that does not want to wait on each). Recorded-only starts never wait.
   */
  awaitBegin?: boolean;
}

/** `dat` of firmwareUpgradeCollector: ret 0 accepted (key set), 1 failed to start, 2 offline, 3 already upgrading. */
export interface StartUpgradeResult {
  ret: 0 | 1 | 2 | 3;
  key?: string;
}

export interface UpgradeEngine {
  /** Refuses (ApiError 352) a firmware that is deleted, unsigned or mis-signed for its manufacturer. */
  start(req: StartUpgradeRequest): Promise<StartUpgradeResult>;
  /** Cancels a running or waiting task (status 4); false when it had already ended. */
  cancel(key: string, by: { accountId: number | null; usr: string }): Promise<boolean>;
}
