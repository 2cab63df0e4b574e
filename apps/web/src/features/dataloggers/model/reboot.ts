/**
 * The reboot's progress (spec §2 "reboot"): the command goes out, the datalogger acknowledges
 * (or refuses, is offline: 263, does not answer: 2), drops its connection and connects again.
 * It counts as reconnected when the log shows a connection newer than the acknowledgement, or
 * when its status was seen offline after the acknowledgement and online again.
 */

/** How long after the announced restart delay the dialog keeps watching for the reconnection. */
export const RECONNECT_GRACE_MS = 60_000;
/** Polling period of the reconnection watch. */
export const RECONNECT_POLL_MS = 2_000;

export interface ReconnectWatch {
  /** Epoch ms of the acknowledgement. */
  ackAt: number;
  /** The restart delay the datalogger announced, s. */
  delay: number;
  /** Its status was seen offline since the acknowledgement. */
  sawOffline: boolean;
}

export type ReconnectState = 'waiting' | 'reconnected' | 'notYet';

/** Folds one poll (current status, newest connection event) into the watch. */
export function reconnectState(
  watch: ReconnectWatch,
  poll: { status: number | undefined; lastConnectTs: number | undefined; now: number },
): { watch: ReconnectWatch; state: ReconnectState } {
  const sawOffline = watch.sawOffline || (poll.status !== undefined && poll.status !== 0);
  const next = { ...watch, sawOffline };
  const connectedAgain =
    (poll.lastConnectTs !== undefined && poll.lastConnectTs > watch.ackAt) || (sawOffline && poll.status === 0);
  if (connectedAgain) return { watch: next, state: 'reconnected' };
  if (poll.now - watch.ackAt > watch.delay * 1000 + RECONNECT_GRACE_MS) return { watch: next, state: 'notYet' };
  return { watch: next, state: 'waiting' };
}

/** yyyy-mm-dd of an instant in a timezone given in seconds east of UTC (a datalogger's day). */
export function dayIn(tzSeconds: number, epochMs: number): string {
  return new Date(epochMs + tzSeconds * 1000).toISOString().slice(0, 10);
}

/** The day before a yyyy-mm-dd day. */
export function previousDay(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
