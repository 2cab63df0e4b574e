/**
 * Figures of a batch's progress bar (queryFirmwareUpgradeBatch; docs/firmware/batches.md): how
 * much of the batch has its tasks (materialised of total) and how much has ended (succeeded,
 * failed, cancelled or refused), and whether the page should keep polling.
 */
import { UPGRADE_BATCH_STATE, type UpgradeBatchProgressDat } from '@sunwatch/protocol';

export interface BatchFigures {
  /** 0..100: targets with a task (or refused) of the total. */
  createdPct: number;
  /** Targets that ended one way or another. */
  finished: number;
  /** 0..100: finished of the total. */
  finishedPct: number;
  /** The job still creates tasks, or some task still runs or waits. */
  active: boolean;
}

const pct = (n: number, of: number) => (of <= 0 ? 100 : Math.min(100, Math.floor((n * 1000) / of) / 10));

export function batchFigures(d: UpgradeBatchProgressDat): BatchFigures {
  const finished = d.done + d.failed + d.cancelled + d.refused;
  const total = Math.max(d.total, d.materialised);
  return {
    createdPct: d.state === UPGRADE_BATCH_STATE.ready ? 100 : pct(d.materialised, total),
    finished,
    finishedPct: pct(finished, total),
    active: d.state === UPGRADE_BATCH_STATE.materialising || d.started + d.waiting > 0,
  };
}

/** Poll interval of a batch's progress: 2 s while it is active (or not loaded yet), none once it has settled. */
export function batchPollInterval(d: UpgradeBatchProgressDat | undefined, ms = 2000): number | false {
  return !d || batchFigures(d).active ? ms : false;
}
