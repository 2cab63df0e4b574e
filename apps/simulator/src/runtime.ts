import type { IngestFrame } from '@sunwatch/protocol';
import { offlineAt } from './alarms.js';
import { DataloggerSim } from './datalogger.js';
import type { Command, Publisher } from './protocol/publisher.js';
import type { DataloggerSpec } from './types.js';
import { commandHandler, type CommandOutcome } from './commands/index.js';

/** Simulated time: wall clock, optionally from another start and faster (`speed`). */
export interface SimClock {
  /** Simulated epoch ms. */
  now(): number;
  /** Wall-clock epoch ms (heartbeats, uptime). */
  wall(): number;
  speed: number;
}

export function simClock(opts: { speed?: number; start?: number; wall?: () => number } = {}): SimClock {
  const wall = opts.wall ?? (() => Date.now());
  const speed = opts.speed ?? 1;
  const realStart = wall();
  const simStart = opts.start ?? realStart;
  return { speed, wall, now: () => simStart + (wall() - realStart) * speed };
}

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined };

export interface LiveDataloggerOptions {
  clock: SimClock;
  log?: Logger;
  /** Oldest frames are dropped beyond this many buffered frames. */
  maxBuffer?: number;
  /** Follow the spec's offline spells (default true). */
  offlineSpells?: boolean;
  /** How far back the datalogger's storage keeps sampled frames for `sync`, ms (default one day). */
  storedMs?: number;
}

/** Smallest / largest collect interval a command may set, seconds. */
export const MIN_INTERVAL = 5;
export const MAX_INTERVAL = 3600;

/**
 * A running datalogger: samples on the collect-interval grid of simulated time, queues the
 * frames and delivers them in order while connected (QoS 1). While offline (a spell, a failed
 * publish, a dropped connection) frames wait in the buffer and go out on reconnect with their
 * original timestamps. Honours interval commands on `sw/dl/<PN>/cmd` with an ack.
 */
export class LiveDatalogger {
  readonly sim: DataloggerSim;
  readonly buffer: IngestFrame[] = [];
  /** Frames delivered, in order (only counted; kept when `keepSent`). */
  sent = 0;
  readonly sentFrames: IngestFrame[] = [];
  keepSent = false;
  heartbeats = 0;
  dropped = 0;
  private forcedOffline = false;
  private spellOffline = false;
  private busy = false;
  private current?: Promise<void>;
  private lastHeartbeat = 0;
  /** Wall-clock ms of the last boot (uptime in heartbeats counts from it). */
  private bootAt: number;
  private nextTs: number;
  private readonly log: Logger;

  constructor(
    sim: DataloggerSim,
    readonly publisher: Publisher,
    private readonly opts: LiveDataloggerOptions,
  ) {
    this.sim = sim;
    this.log = opts.log ?? silentLogger;
    this.bootAt = opts.clock.wall();
    this.nextTs = sim.nextSampleTs(opts.clock.now());
    publisher.onCommand((cmd) => void this.handleCommand(cmd));
  }

  get spec(): DataloggerSpec {
    return this.sim.spec;
  }

  get offline(): boolean {
    return this.forcedOffline || this.spellOffline;
  }

  /** Cuts the link (frames are buffered) until `goOnline()`. */
  async goOffline(): Promise<void> {
    this.forcedOffline = true;
    await this.current; // let a delivery in progress finish first
    await this.publisher.close();
  }

  goOnline(): void {
    this.forcedOffline = false;
  }

  /** Wall-clock ms of the last boot. */
  get bootedAt(): number {
    return this.bootAt;
  }

  /** A reboot finished: uptime counts from now and a heartbeat goes out with the next tick. */
  booted(): void {
    this.bootAt = this.opts.clock.wall();
    this.lastHeartbeat = 0;
  }

  /** Samples everything due up to now, then (when online) delivers the queue and a heartbeat. */
  tick(): Promise<void> {
    if (this.busy) return this.current ?? Promise.resolve();
    this.busy = true;
    this.current = this.runTick().finally(() => {
      this.busy = false;
    });
    return this.current;
  }

  private async runTick(): Promise<void> {
    const now = this.opts.clock.now();
    while (this.nextTs <= now) {
      this.enqueue(this.sim.frameAt(this.nextTs));
      this.nextTs = this.sim.nextSampleTs(this.nextTs + 1);
    }
    const spell = this.opts.offlineSpells !== false && offlineAt(this.spec, now);
    if (spell !== this.spellOffline) {
      this.spellOffline = spell;
      this.log.info(`${this.spec.pn}: ${spell ? 'offline spell begins' : 'back online'}`);
      if (spell) await this.publisher.close();
    }
    if (this.offline) return;
    if (!this.publisher.connected) {
      try {
        await this.publisher.connect();
        if (this.buffer.length > 1)
          this.log.info(`${this.spec.pn}: connected, resending ${this.buffer.length} buffered frames`);
      } catch (e) {
        this.log.warn(`${this.spec.pn}: connect failed: ${(e as Error).message}`);
        return;
      }
    }
    await this.flush();
    const wall = this.opts.clock.wall();
    if (wall - this.lastHeartbeat >= this.spec.heartbeatInterval * 1000) {
      this.lastHeartbeat = wall;
      await this.publisher
        .publishHeartbeat(this.sim.heartbeat(wall, (wall - this.bootAt) / 1000, 60 + ((wall / 60000) % 30)))
        .then(() => (this.heartbeats += 1))
        .catch(() => undefined);
    }
  }

  /**
   * The frames this datalogger sampled (its local storage, newest last, the last `storedMs`):
   * a `sync` command resends a range of them (commands/device.ts).
   */
  readonly stored: IngestFrame[] = [];

  private enqueue(frame: IngestFrame): void {
    this.stored.push(frame);
    // The datalogger's storage: the last `storedMs` of samples (default one day), at most 10 000.
    const oldest = frame.ts - (this.opts.storedMs ?? 86_400_000);
    let drop = Math.max(0, this.stored.length - 10_000);
    while (drop < this.stored.length && this.stored[drop]!.ts < oldest) drop += 1;
    if (drop > 0) this.stored.splice(0, drop);
    this.buffer.push(frame);
    const max = this.opts.maxBuffer ?? 20_000;
    if (this.buffer.length > max) {
      this.buffer.splice(0, this.buffer.length - max);
      this.dropped += 1;
    }
  }

  /** Delivers queued frames oldest first; stops at the first failure (the frame stays queued). */
  async flush(): Promise<void> {
    while (this.buffer.length > 0 && !this.offline && this.publisher.connected) {
      const frame = this.buffer[0]!;
      try {
        await this.publisher.publishFrame(frame);
      } catch (e) {
        this.log.warn(
          `${this.spec.pn}: publish failed (${(e as Error).message}); ${this.buffer.length} frames buffered`,
        );
        await this.publisher.close();
        return;
      }
      this.buffer.shift();
      this.sent += 1;
      if (this.keepSent) this.sentFrames.push(frame);
    }
  }

  /**
   * `{"id": …, "collect_interval": 60}` (also `interval`, `collectInterval`, or `value` with
   * `cmd`/`type` "collect_interval"/"set_interval"; `heartbeat_interval` likewise). Acked on
   * `sw/dl/<PN>/ack` with `{pn, id, ok, collect_interval, heartbeat_interval, ts}`.
   */
  async handleCommand(cmd: Command): Promise<void> {
    const handler = typeof cmd.cmd === 'string' ? commandHandler(cmd.cmd) : undefined;
    if (handler) {
      const params = (typeof cmd.params === 'object' && cmd.params ? cmd.params : {}) as Record<string, unknown>;
      let outcome: CommandOutcome;
      try {
        outcome = await handler({ logger: this, cmd, params });
      } catch (e) {
        outcome = { ok: false, code: 1, error: (e as Error).message };
      }
      const body: Record<string, unknown> = {
        pn: this.spec.pn,
        id: cmd.id ?? null,
        ok: outcome.ok,
        ts: this.opts.clock.wall(),
      };
      if (outcome.code !== undefined) body.code = outcome.code;
      if (outcome.error !== undefined) body.error = outcome.error;
      if (outcome.result !== undefined) body.result = outcome.result;
      await this.publisher.ack(body).catch(() => undefined);
      await outcome.after?.();
      return;
    }
    const num = (v: unknown) =>
      typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    const kind = String(cmd.cmd ?? cmd.type ?? cmd.action ?? cmd.name ?? '');
    const params = (typeof cmd.params === 'object' && cmd.params ? cmd.params : {}) as Record<string, unknown>;
    const pick = (...keys: string[]) => {
      for (const k of keys) {
        const v = num(cmd[k] ?? params[k]);
        if (Number.isFinite(v)) return v;
      }
      return NaN;
    };
    let interval = pick('collect_interval', 'collectInterval', 'interval', 'seconds');
    if (!Number.isFinite(interval) && /interval|collect|accelerat/i.test(kind)) interval = pick('value');
    const hb = pick('heartbeat_interval', 'heartbeatInterval');
    let ok = Number.isFinite(interval) || Number.isFinite(hb);
    let error: string | undefined;
    if (Number.isFinite(interval)) {
      if (interval < MIN_INTERVAL || interval > MAX_INTERVAL || !Number.isInteger(interval)) {
        ok = false;
        error = `collect_interval must be an integer ${MIN_INTERVAL}..${MAX_INTERVAL}`;
      } else {
        this.spec.collectInterval = interval;
        this.nextTs = this.sim.nextSampleTs(Math.max(this.opts.clock.now(), (this.sim.lastTs ?? 0) + 1));
        this.log.info(`${this.spec.pn}: collect interval → ${interval} s`);
      }
    }
    if (ok && Number.isFinite(hb) && hb >= 5 && hb <= 3600) this.spec.heartbeatInterval = Math.round(hb);
    if (!Number.isFinite(interval) && !Number.isFinite(hb)) error = 'unknown command';
    const body: Record<string, unknown> = {
      pn: this.spec.pn,
      id: cmd.id ?? null,
      ok,
      collect_interval: this.spec.collectInterval,
      heartbeat_interval: this.spec.heartbeatInterval,
      // The shape of docs/contracts.md "Datalogger commands" (`result`), besides the flat fields older tools read.
      result: { collect_interval: this.spec.collectInterval, heartbeat_interval: this.spec.heartbeatInterval },
      ts: this.opts.clock.wall(),
    };
    if (error) body.error = error;
    await this.publisher.ack(body).catch(() => undefined);
  }
}

export interface LiveFleetOptions extends Omit<LiveDataloggerOptions, 'clock'> {
  clock?: SimClock;
  /** Wall-clock ms between scheduler passes (default 1000). */
  tickMs?: number;
  publisherFor(spec: DataloggerSpec): Publisher;
  /** Resume from these simulators (history already generated) instead of fresh ones. */
  sims?: DataloggerSim[];
}

/** A fleet of live dataloggers on one scheduler. */
export class LiveFleet {
  readonly loggers: LiveDatalogger[];
  readonly clock: SimClock;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(specs: DataloggerSpec[], opts: LiveFleetOptions) {
    this.clock = opts.clock ?? simClock();
    const sims = new Map((opts.sims ?? []).map((s) => [s.spec.pn, s]));
    this.loggers = specs.map(
      (spec) =>
        new LiveDatalogger(sims.get(spec.pn) ?? new DataloggerSim(structuredClone(spec)), opts.publisherFor(spec), {
          ...opts,
          clock: this.clock,
        }),
    );
    this.tickMs = opts.tickMs ?? 1000;
  }

  private readonly tickMs: number;

  /** One pass over every datalogger. */
  tick(): Promise<unknown> {
    this.running = Promise.allSettled(this.loggers.map((l) => l.tick()));
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    await Promise.allSettled(this.loggers.map((l) => l.flush()));
    await Promise.allSettled(this.loggers.map((l) => l.publisher.close()));
  }

  stats(): { dataloggers: number; sent: number; buffered: number; heartbeats: number; offline: number } {
    let sent = 0;
    let buffered = 0;
    let heartbeats = 0;
    let offline = 0;
    for (const l of this.loggers) {
      sent += l.sent;
      buffered += l.buffer.length;
      heartbeats += l.heartbeats;
      if (l.offline || !l.publisher.connected) offline += 1;
    }
    return { dataloggers: this.loggers.length, sent, buffered, heartbeats, offline };
  }
}
