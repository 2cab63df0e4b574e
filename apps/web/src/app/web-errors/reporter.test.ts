import { describe, expect, it } from 'vitest';
import { WEB_REPORTER, WEB_REPORT_LIMITS, WEB_SLOW_PAGE_MS, type WebEvent } from '@sunwatch/protocol';
import { ApiCallError } from '@sunwatch/protocol';
import { WebReporter, batches, type ReporterDeps } from './reporter';

interface Sent {
  events: WebEvent[];
  signed: boolean;
  keepalive: boolean;
}

function setup(over: Partial<ReporterDeps> & { randoms?: number[]; fail?: (signed: boolean) => unknown } = {}) {
  const sent: Sent[] = [];
  const timers: Array<() => void> = [];
  const randoms = [...(over.randoms ?? [])];
  const deps: ReporterDeps = {
    send: async (events, signed, keepalive) => {
      const f = over.fail?.(signed);
      if (f) throw f;
      sent.push({ events, signed, keepalive });
    },
    hasSession: () => false,
    now: () => 1_000,
    random: () => (randoms.length ? randoms.shift()! : 0.5),
    location: () => '/adminNew/device?pn=X1&token=abcdef',
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => undefined,
    replaySampled: false,
    ...over,
  };
  return { reporter: new WebReporter(deps), sent, timers };
}

describe('web reporter', () => {
  it('batches errors after a delay and sends them unsigned before sign-in, signed with a session', async () => {
    const a = setup();
    a.reporter.captureError(new Error('one'), 'onerror');
    a.reporter.captureError(new TypeError('two'), 'unhandledrejection');
    expect(a.sent).toHaveLength(0);
    expect(a.timers).toHaveLength(1); // one timer for the batch
    await a.reporter.flush();
    expect(a.sent).toHaveLength(1);
    expect(a.sent[0]!.signed).toBe(false);
    expect(a.sent[0]!.events.map((e) => e.message)).toEqual(['Error: one', 'TypeError: two']);
    expect(a.sent[0]!.events[0]!.route).toBe('/adminNew/device');

    const b = setup({ hasSession: () => true });
    b.reporter.captureError('plain', 'onerror');
    await b.reporter.flush();
    expect(b.sent[0]!.signed).toBe(true);
  });

  it('a dead or demo session falls back to the public collector; other failures are dropped, never thrown', async () => {
    const a = setup({
      hasSession: () => true,
      fail: (signed) => (signed ? new ApiCallError(10, 'ERR_NO_AUTH') : undefined),
    });
    a.reporter.captureError(new Error('x'), 'onerror');
    await a.reporter.flush();
    expect(a.sent.map((s) => s.signed)).toEqual([false]);

    const b = setup({ fail: () => new ApiCallError(13, 'ERR_OVER_LIMITED') });
    b.reporter.captureError(new Error('x'), 'onerror');
    await expect(b.reporter.flush()).resolves.toBeUndefined();
    expect(b.reporter.dropped).toBe(1);
  });

  it('reports the same error object once (boundary and global handler)', async () => {
    const a = setup();
    const e = new Error('twice');
    a.reporter.captureError(e, 'boundary');
    a.reporter.captureError(e, 'onerror');
    await a.reporter.flush();
    expect(a.sent[0]!.events).toHaveLength(1);
  });

  it('scrubs secrets from messages, stacks, addresses and breadcrumbs before sending', async () => {
    const a = setup();
    a.reporter.breadcrumb('action', 'queryPlants token=' + 'a'.repeat(64));
    const e = new Error('GET /public/?sign=abc&salt=1&pwd=hunter2 failed');
    e.stack = 'Error\n at f (/x.js?token=abcdef:1:1)';
    a.reporter.captureError(e, 'onerror');
    await a.reporter.flush();
    const text = JSON.stringify(a.sent);
    for (const secret of ['hunter2', 'abcdef', 'a'.repeat(64), 'sign=abc']) expect(text).not.toContain(secret);
    expect(a.sent[0]!.events[0]!.url).toBe('/adminNew/device?pn=X1&token=***');
  });

  it('sampling: an error always carries the trail (replay on error 1); traces only above the threshold', async () => {
    const a = setup();
    a.reporter.breadcrumb('route', '/adminNew/home');
    a.reporter.breadcrumb('click', 'button "Save"');
    a.reporter.captureError(new Error('x'), 'onerror');
    a.reporter.trace('navigation', '/adminNew/device', WEB_SLOW_PAGE_MS - 1);
    a.reporter.trace('navigation', '/adminNew/device', WEB_SLOW_PAGE_MS + 500);
    a.reporter.trace('first-load', '/adminNew/home', 12_000);
    await a.reporter.flush();
    const [error, slow, first] = a.sent[0]!.events;
    expect(error!.breadcrumbs!.map((b) => b.type)).toEqual(['route', 'click']);
    expect(slow).toMatchObject({ kind: 'trace', source: 'navigation', durationMs: WEB_SLOW_PAGE_MS + 500 });
    expect(first).toMatchObject({ kind: 'trace', source: 'first-load', durationMs: 12_000 });
    expect(a.sent[0]!.events).toHaveLength(3);
  });

  it('replay: only a sampled session sends its trail, when it filled up or on page hide, bounded per tab', async () => {
    const off = setup({ replaySampled: false });
    for (let i = 0; i < WEB_REPORT_LIMITS.breadcrumbs * 2; i++) off.reporter.breadcrumb('click', `c${i}`);
    off.reporter.replay();
    await off.reporter.flush();
    expect(off.sent).toHaveLength(0);
    expect(off.reporter.breadcrumbs).toHaveLength(WEB_REPORT_LIMITS.breadcrumbs); // the trail stays bounded

    const on = setup({ replaySampled: true });
    for (let i = 0; i < WEB_REPORT_LIMITS.breadcrumbs; i++) on.reporter.breadcrumb('click', `c${i}`);
    on.reporter.breadcrumb('route', '/adminNew/home');
    on.reporter.replay(); // page hide
    on.reporter.replay(); // nothing new since: no second trail
    await on.reporter.flush(true);
    const replays = on.sent.flatMap((s) => s.events).filter((e) => e.kind === 'replay');
    expect(replays).toHaveLength(2);
    expect(replays[0]!.breadcrumbs).toHaveLength(WEB_REPORT_LIMITS.breadcrumbs);
    expect(on.sent[0]!.keepalive).toBe(true);
    for (let i = 0; i < WEB_REPORTER.maxReplaysPerSession * 3; i++) {
      on.reporter.breadcrumb('click', 'x');
      on.reporter.replay();
    }
    await on.reporter.flush();
    expect(on.sent.flatMap((s) => s.events).filter((e) => e.kind === 'replay')).toHaveLength(
      WEB_REPORTER.maxReplaysPerSession,
    );
  });

  it('the queue is bounded; batches keep to the events-per-call and length limits', async () => {
    const a = setup();
    for (let i = 0; i < WEB_REPORTER.maxQueue + 5; i++) a.reporter.captureError(new Error(`e${i}`), 'onerror');
    expect(a.reporter.dropped).toBe(5);
    await a.reporter.flush();
    const sizes = a.sent.map((s) => s.events.length);
    expect(sizes.reduce((x, y) => x + y, 0)).toBe(WEB_REPORTER.maxQueue);
    for (const s of a.sent) {
      expect(s.events.length).toBeLessThanOrEqual(WEB_REPORT_LIMITS.eventsPerBatch);
      expect(JSON.stringify(s.events).length).toBeLessThanOrEqual(WEB_REPORT_LIMITS.batchChars);
    }
    const big: WebEvent = {
      kind: 'error',
      source: 'onerror',
      ts: 1,
      message: 'm',
      stack: '"'.repeat(WEB_REPORT_LIMITS.stack),
    };
    const parts = batches(Array.from({ length: 10 }, () => big));
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(JSON.stringify(p).length).toBeLessThanOrEqual(WEB_REPORT_LIMITS.batchChars);
  });

  it('never throws and never reports its own failure', async () => {
    const a = setup({
      location: () => {
        throw new Error('location broke');
      },
    });
    expect(() => a.reporter.captureError(new Error('x'), 'onerror')).not.toThrow();
    expect(() => a.reporter.trace('navigation', '/x', 99_999)).not.toThrow();
    await a.reporter.flush();
    expect(a.sent).toHaveLength(0);
  });
});
