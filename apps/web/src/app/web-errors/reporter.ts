/**
 * The web app's error reporter (issue 16, spec §9; docs/operations.md "Web error reporting"):
 * script errors, slow pages (traces) and session trails (replay) go to the platform's own collector
 * (reportWebEvents signed, reportWebEventsPublic before sign-in). Sampling by WEB_SAMPLE_RATES:
 * errors and traces 1, replay 0.1 per tab session, replay on error 1 — "replay" is a bounded trail
 * of the last route changes, clicks and action calls (no DOM recording, docs/decisions.md s30-weberr).
 *
 * Batched (a short delay, at most WEB_REPORT_LIMITS per call), bounded (queue, trail, replays per
 * tab), scrubbed of secrets before sending, and it never throws: every entry point swallows its own
 * failures, a failed send is dropped, and nothing the reporter does is reported again.
 */
import {
  WEB_REPORTER,
  WEB_REPORT_LIMITS,
  WEB_SAMPLE_RATES,
  WEB_SLOW_PAGE_MS,
  cut,
  scrubSecrets,
  scrubUrl,
  type WebBreadcrumb,
  type WebBreadcrumbType,
  type WebEvent,
  type WebEventSource,
} from '@sunwatch/protocol';

export interface ReporterDeps {
  /** Sends one batch; `signed` while a session exists. Rejects on failure (err 10/11 → the caller retries public). */
  send(events: WebEvent[], signed: boolean, keepalive: boolean): Promise<void>;
  hasSession(): boolean;
  now(): number;
  /** [0, 1) — sampling. */
  random(): number;
  /** Path and query of the page. */
  location(): string;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Whether this tab session was sampled for replay (decided once per tab, WEB_SAMPLE_RATES.replay). */
  replaySampled: boolean;
}

/** Message and stack of anything thrown. */
export function describeError(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) {
    const message = `${error.name}: ${error.message}`;
    return error.stack ? { message, stack: error.stack } : { message };
  }
  if (typeof error === 'string') return { message: error };
  try {
    return { message: JSON.stringify(error) ?? String(error) };
  } catch {
    return { message: String(error) };
  }
}

/** An event as sent: secrets scrubbed, every field within its limit. */
export function boundEvent(e: WebEvent): WebEvent {
  const L = WEB_REPORT_LIMITS;
  const out: WebEvent = {
    kind: e.kind,
    source: e.source,
    ts: Math.max(0, Math.round(e.ts)),
    message: cut(scrubSecrets(e.message), L.message) || '(no message)',
  };
  if (e.stack) out.stack = cut(scrubSecrets(e.stack), L.stack);
  if (e.url) out.url = cut(scrubUrl(e.url), L.url);
  if (e.route) out.route = cut(scrubUrl(e.route), L.route);
  if (e.durationMs !== undefined) out.durationMs = Math.min(3_600_000, Math.max(0, Math.round(e.durationMs)));
  if (e.breadcrumbs?.length) {
    out.breadcrumbs = e.breadcrumbs.slice(-L.breadcrumbs).map((b) => ({
      ts: Math.max(0, Math.round(b.ts)),
      type: b.type,
      message: cut(scrubSecrets(b.message), L.breadcrumbMessage),
    }));
  }
  return out;
}

/** Fits an event into one call's JSON budget: breadcrumbs, then the stack, are shortened; undefined when it cannot fit. */
function fitted(e: WebEvent): WebEvent | undefined {
  const max = WEB_REPORT_LIMITS.batchChars - 2;
  let cur = e;
  if (JSON.stringify(cur).length <= max) return cur;
  cur = { ...cur, breadcrumbs: cur.breadcrumbs?.slice(-10) };
  if (JSON.stringify(cur).length <= max) return cur;
  cur = { ...cur, breadcrumbs: undefined, stack: cur.stack?.slice(0, 2000) };
  return JSON.stringify(cur).length <= max ? cur : undefined;
}

/** Splits events into calls within WEB_REPORT_LIMITS (events per batch, JSON length). */
export function batches(events: readonly WebEvent[]): WebEvent[][] {
  const out: WebEvent[][] = [];
  let cur: WebEvent[] = [];
  let size = 2;
  for (const raw of events) {
    const e = fitted(raw);
    if (!e) continue;
    const n = JSON.stringify(e).length + 1;
    if (cur.length > 0 && (cur.length >= WEB_REPORT_LIMITS.eventsPerBatch || size + n > WEB_REPORT_LIMITS.batchChars)) {
      out.push(cur);
      cur = [];
      size = 2;
    }
    cur.push(e);
    size += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

export class WebReporter {
  private queue: WebEvent[] = [];
  private trail: WebBreadcrumb[] = [];
  private readonly reported = new WeakSet<object>();
  private timer: unknown;
  /** True while the reporter itself runs: an error raised meanwhile is its own and never reported. */
  private busy = false;
  private replays = 0;
  private crumbsSinceReplay = 0;
  /** Events dropped (queue full, failed sends) — for tests and the console. */
  dropped = 0;

  constructor(private readonly deps: ReporterDeps) {}

  /** Runs `fn`, never throwing and never re-entering. */
  private guard(fn: () => void): void {
    if (this.busy) return;
    this.busy = true;
    try {
      fn();
    } catch {
      // the reporter's own failure: dropped, never reported
    } finally {
      this.busy = false;
    }
  }

  /** The trail, kept to the last WEB_REPORT_LIMITS.breadcrumbs entries. */
  breadcrumb(type: WebBreadcrumbType, message: string): void {
    this.guard(() => {
      this.trail.push({
        ts: this.deps.now(),
        type,
        message: cut(scrubSecrets(message), WEB_REPORT_LIMITS.breadcrumbMessage),
      });
      if (this.trail.length > WEB_REPORT_LIMITS.breadcrumbs)
        this.trail.splice(0, this.trail.length - WEB_REPORT_LIMITS.breadcrumbs);
      this.crumbsSinceReplay++;
    });
    // a sampled session sends its trail each time it filled up once more
    if (this.deps.replaySampled && this.crumbsSinceReplay >= WEB_REPORT_LIMITS.breadcrumbs) this.replay();
  }

  get breadcrumbs(): readonly WebBreadcrumb[] {
    return this.trail;
  }

  /** A script error (sample rate 1); the trail goes with it (replay on error, rate 1). */
  captureError(error: unknown, source: WebEventSource): void {
    this.guard(() => {
      if (error !== null && typeof error === 'object') {
        if (this.reported.has(error)) return; // the same error seen by a boundary and a global handler
        this.reported.add(error);
      }
      if (this.deps.random() >= WEB_SAMPLE_RATES.errors) return;
      const { message, stack } = describeError(error);
      const withTrail = this.deps.random() < WEB_SAMPLE_RATES.replayOnError;
      this.enqueue({
        kind: 'error',
        source,
        ts: this.deps.now(),
        message,
        ...(stack ? { stack } : {}),
        url: this.deps.location(),
        route: this.route(),
        ...(withTrail && this.trail.length ? { breadcrumbs: [...this.trail] } : {}),
      });
      this.trail.push({
        ts: this.deps.now(),
        type: 'error',
        message: cut(scrubSecrets(message), WEB_REPORT_LIMITS.breadcrumbMessage),
      });
      if (this.trail.length > WEB_REPORT_LIMITS.breadcrumbs) this.trail.shift();
    });
  }

  /** A page that took `durationMs`: reported above WEB_SLOW_PAGE_MS (sample rate 1). */
  trace(source: 'first-load' | 'navigation', route: string, durationMs: number): void {
    this.guard(() => {
      if (!(durationMs > WEB_SLOW_PAGE_MS)) return;
      if (this.deps.random() >= WEB_SAMPLE_RATES.traces) return;
      this.enqueue({
        kind: 'trace',
        source,
        ts: this.deps.now(),
        message: `Slow ${source === 'first-load' ? 'first load' : 'navigation'}: ${Math.round(durationMs)} ms`,
        url: this.deps.location(),
        route,
        durationMs,
      });
    });
  }

  /** A sampled session's trail (at most WEB_REPORTER.maxReplaysPerSession per tab). */
  replay(): void {
    this.guard(() => {
      if (!this.deps.replaySampled || this.trail.length === 0 || this.crumbsSinceReplay === 0) return;
      if (this.replays >= WEB_REPORTER.maxReplaysPerSession) return;
      this.replays++;
      this.crumbsSinceReplay = 0;
      this.enqueue({
        kind: 'replay',
        source: 'session',
        ts: this.deps.now(),
        message: `Session trail: ${this.trail.length} events`,
        url: this.deps.location(),
        route: this.route(),
        breadcrumbs: [...this.trail],
      });
    });
  }

  private route(): string {
    return this.deps.location().split('?')[0] ?? '';
  }

  private enqueue(e: WebEvent): void {
    if (this.queue.length >= WEB_REPORTER.maxQueue) {
      this.dropped++;
      return;
    }
    this.queue.push(boundEvent(e));
    this.timer ??= this.deps.setTimer(() => void this.flush(), WEB_REPORTER.flushDelayMs);
  }

  /** Sends everything queued (keepalive on page hide). Resolves always. */
  async flush(keepalive = false): Promise<void> {
    if (this.timer !== undefined) {
      this.deps.clearTimer(this.timer);
      this.timer = undefined;
    }
    const events = this.queue;
    this.queue = [];
    if (events.length === 0) return;
    let parts: WebEvent[][] = [];
    this.guard(() => {
      parts = batches(events);
    });
    for (const part of parts) {
      try {
        await this.sendOne(part, keepalive);
      } catch {
        this.dropped += part.length; // never retried in a loop, never reported
      }
    }
  }

  private async sendOne(part: WebEvent[], keepalive: boolean): Promise<void> {
    if (this.deps.hasSession()) {
      try {
        await this.deps.send(part, true, keepalive);
        return;
      } catch (e) {
        // a dead or read-only (demo) session: the events still go, unsigned
        const err = (e as { err?: unknown } | null)?.err;
        if (err !== 10 && err !== 11 && err !== 25 && err !== 27) throw e;
      }
    }
    await this.deps.send(part, false, keepalive);
  }
}
