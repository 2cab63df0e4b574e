/**
 * Whether a task runs, and the poll interval of a list while one does (issue 13). Kept apart from
 * status.ts so the device detail's tab rule (app/device-tabs.ts) loads only this much of the
 * upgrade screens on every device page.
 */
import { FIRMWARE_UPGRADE_STATUS } from '@sunwatch/protocol';

export function isRunning(status: number): boolean {
  return status === FIRMWARE_UPGRADE_STATUS.running;
}

/** Poll interval of a list: 2 s while any of its tasks runs, none once all ended. */
export function pollInterval(tasks: ReadonlyArray<{ status: number }> | undefined, ms = 2000): number | false {
  return tasks?.some((t) => isRunning(t.status)) ? ms : false;
}
