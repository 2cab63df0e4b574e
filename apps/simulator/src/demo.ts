import fs from 'node:fs';
import path from 'node:path';
import type { IngestFrame } from '@sunwatch/protocol';
import { generateHistory } from './history.js';
import type { PlantState } from './plant.js';
import { HttpPublisher } from './protocol/http.js';
import { MqttPublisher } from './protocol/mqtt.js';
import { LiveFleet, silentLogger, simClock, type Logger } from './runtime.js';
import type { FleetSpec } from './types.js';

const DAY_MS = 86_400_000;

export interface DemoFleetOptions {
  /** The dataloggers (with their device tokens). */
  fleet: FleetSpec;
  /** The server's MQTT broker, e.g. mqtt://127.0.0.1:1883 … */
  mqttUrl?: string;
  /** … or its HTTP ingest, e.g. http://127.0.0.1:8080 */
  httpUrl?: string;
  /** Where plant states are kept between runs (JSON, 0600); none = always start fresh. */
  statePath?: string;
  /** History to generate when a datalogger has no saved state (days). */
  historyDays: number;
  /** Ignore saved states (of all dataloggers, or of these PNs): e.g. they have no data yet. */
  fresh?: boolean | ReadonlySet<string>;
  /**
   * Stores history frames in-process (fast). Without it, history goes out over MQTT as buffered
   * frames.
   */
  ingest?: (frames: IngestFrame[]) => Promise<unknown>;
  log?: Logger;
  speed?: number;
  now?: () => number;
  /** Wall-clock ms between state saves (default 60 s). */
  saveEveryMs?: number;
  /** Offline spells in the live run (default on). */
  offlineSpells?: boolean;
}

export interface DemoFleet {
  fleet: LiveFleet;
  historyFrames: number;
  stop(): Promise<void>;
}

interface StateFile {
  version: 1;
  states: Record<string, PlantState>;
}

export function readStates(file: string | undefined): Record<string, PlantState> {
  if (!file) return {};
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<StateFile>;
    return parsed.version === 1 && parsed.states ? parsed.states : {};
  } catch {
    return {};
  }
}

/** Writes a file atomically with owner-only permissions. */
export function writePrivateFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
  fs.chmodSync(file, 0o600);
}

/**
 * The demo fleet of `npm start`: catches each datalogger up to now (history on first start,
 * the gap since the last run otherwise, through `ingest`), then runs it live over MQTT.
 */
export async function startDemoFleet(opts: DemoFleetOptions): Promise<DemoFleet> {
  const log = opts.log ?? silentLogger;
  const now = (opts.now ?? Date.now)();
  const saved = opts.fresh === true ? {} : readStates(opts.statePath);
  const fresh = (pn: string) => opts.fresh === true || (opts.fresh instanceof Set && opts.fresh.has(pn));
  const oldest = now - opts.historyDays * DAY_MS;
  const states: Record<string, PlantState | undefined> = {};
  for (const dl of opts.fleet.dataloggers) {
    const st = saved[dl.pn];
    if (!st || st.lastTs === null || fresh(dl.pn)) continue;
    // Too old: keep the counters (they never go back) but skip the gap beyond the history window.
    // In the future (clock changed): resume from now.
    const lastTs = Math.min(now - 300_000, Math.max(oldest - 300_000, st.lastTs));
    states[dl.pn] = { ...st, lastTs };
  }
  const pending = new Map<string, IngestFrame[]>();
  const t0 = Date.now();
  const history = await generateHistory({
    fleet: opts.fleet,
    from: oldest,
    to: now,
    interval: 300,
    states,
    batchSize: 500,
    onBatch: async (frames) => {
      if (opts.ingest) await opts.ingest(frames);
      else for (const f of frames) pending.set(f.pn, [...(pending.get(f.pn) ?? []), f]);
    },
  });
  if (history.count > 0) {
    log.info(
      `Demo fleet: ${history.count} history frames for ${opts.fleet.dataloggers.length} dataloggers in ${Date.now() - t0} ms`,
    );
  }
  const fleet = new LiveFleet(opts.fleet.dataloggers, {
    clock: simClock({ speed: opts.speed ?? 1, start: now }),
    log,
    sims: history.sims,
    offlineSpells: opts.offlineSpells,
    publisherFor: (spec) =>
      opts.mqttUrl
        ? new MqttPublisher({ url: opts.mqttUrl, pn: spec.pn, token: spec.token })
        : new HttpPublisher({ url: opts.httpUrl ?? 'http://127.0.0.1:8080', pn: spec.pn, token: spec.token }),
  });
  for (const l of fleet.loggers) l.buffer.push(...(pending.get(l.spec.pn) ?? []));
  const save = () => {
    if (!opts.statePath) return;
    const out: StateFile = { version: 1, states: {} };
    for (const l of fleet.loggers) out.states[l.spec.pn] = l.sim.state();
    try {
      writePrivateFile(opts.statePath, JSON.stringify(out));
    } catch (e) {
      log.warn(`Demo fleet: cannot save state: ${(e as Error).message}`);
    }
  };
  save();
  fleet.start();
  const saver = setInterval(save, opts.saveEveryMs ?? 60_000);
  saver.unref();
  log.info(`Demo fleet: ${fleet.loggers.length} dataloggers live on ${opts.mqttUrl ?? opts.httpUrl}`);
  return {
    fleet,
    historyFrames: history.count,
    async stop() {
      clearInterval(saver);
      await fleet.stop();
      save();
    },
  };
}
