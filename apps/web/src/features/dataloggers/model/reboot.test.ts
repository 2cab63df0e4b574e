import { describe, expect, it } from 'vitest';
import { RECONNECT_GRACE_MS, dayIn, previousDay, reconnectState } from './reboot';

const watch = { ackAt: 1_000_000, delay: 3, sawOffline: false };

describe('reboot reconnection watch', () => {
  it('waits while the datalogger still looks online and no new connection is logged', () => {
    expect(reconnectState(watch, { status: 0, lastConnectTs: 999_000, now: 1_002_000 }).state).toBe('waiting');
  });

  it('sees the reconnection in a connection event newer than the acknowledgement', () => {
    expect(reconnectState(watch, { status: 0, lastConnectTs: 1_004_000, now: 1_005_000 }).state).toBe('reconnected');
  });

  it('sees it in the status going offline and then online again', () => {
    const a = reconnectState(watch, { status: 1, lastConnectTs: undefined, now: 1_002_000 });
    expect(a.state).toBe('waiting');
    expect(a.watch.sawOffline).toBe(true);
    expect(reconnectState(a.watch, { status: 0, lastConnectTs: undefined, now: 1_006_000 }).state).toBe('reconnected');
  });

  it('gives up watching after the delay and the grace period', () => {
    const late = watch.ackAt + watch.delay * 1000 + RECONNECT_GRACE_MS + 1;
    expect(reconnectState(watch, { status: 1, lastConnectTs: undefined, now: late }).state).toBe('notYet');
  });

  it("computes the datalogger's day in its timezone", () => {
    const t = Date.parse('2026-11-24T23:30:00Z');
    expect(dayIn(0, t)).toBe('2026-11-24');
    expect(dayIn(3600, t)).toBe('2026-11-25');
    expect(dayIn(-5 * 3600, t)).toBe('2026-11-24');
    expect(previousDay('2026-03-01')).toBe('2026-02-28');
  });
});
