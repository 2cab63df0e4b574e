#!/usr/bin/env node
/**
 * Sunwatch simulator CLI.
 *
 *   npx tsx apps/simulator/src/cli.ts --url mqtt://127.0.0.1:1883 --fleet data/demo-fleet.json
 *   npx tsx apps/simulator/src/cli.ts --count 200 --server http://127.0.0.1:8080 --tokens tokens.json --duration 5m
 *
 * Options
 *   --url <mqtt://…>        MQTT broker (loopback only)
 *   --server <http://…>     HTTP ingest instead of MQTT (loopback only)
 *   --fleet <file.json>     FleetSpec JSON ({dataloggers:[…]}, tokens included), e.g. <DATA_DIR>/demo-fleet.json
 *   --count <N>             generate N dataloggers instead (with --seed, --prefix)
 *   --tokens <file.json>    {"<PN>": "<device token>"} for generated fleets
 *   --interval <s>          collect interval (default: the fleet's, 300 for generated fleets)
 *   --speed <x>             simulated time runs x times faster (frames carry simulated time)
 *   --start <iso|ms>        simulated start (default now)
 *   --duration <10m|600s>   stop after this long (wall clock); default: run until Ctrl-C
 *   --history <days>        first send <days> of history through the same link
 *   --history-only          send the history, then exit
 *   --no-offline            no offline spells
 *   --fault <SN>=<code>     the device SN reports this fault code all the time (repeatable)
 *   --print-fleet           print the (generated) fleet as JSON and exit
 *   --quiet                 only the summary
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { forceFault } from './alarms.js';
import { buildFleet } from './fleet.js';
import { generateHistory } from './history.js';
import { HttpPublisher } from './protocol/http.js';
import { MqttPublisher } from './protocol/mqtt.js';
import { assertLoopback } from './protocol/topics.js';
import { LiveFleet, simClock, type Logger } from './runtime.js';
import type { FleetSpec } from './types.js';

export function parseDuration(s: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(s.trim());
  if (!m) throw new Error(`Bad duration: ${s} (e.g. 90s, 10m, 2h)`);
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    (m[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'
  ];
  return n * unit;
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const { values: a } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      server: { type: 'string' },
      fleet: { type: 'string' },
      count: { type: 'string' },
      seed: { type: 'string' },
      prefix: { type: 'string' },
      tokens: { type: 'string' },
      interval: { type: 'string' },
      speed: { type: 'string' },
      start: { type: 'string' },
      duration: { type: 'string' },
      history: { type: 'string' },
      'history-only': { type: 'boolean' },
      'no-offline': { type: 'boolean' },
      fault: { type: 'string', multiple: true },
      'print-fleet': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (a.help) {
    const src = fs.readFileSync(new URL(import.meta.url), 'utf8');
    console.log(/\/\*\*([\s\S]*?)\*\//.exec(src)?.[1]?.replace(/^ \* ?/gm, '') ?? '');
    return 0;
  }
  let fleet: FleetSpec;
  if (a.fleet) fleet = JSON.parse(fs.readFileSync(a.fleet, 'utf8')) as FleetSpec;
  else if (a.count) {
    fleet = buildFleet({
      count: Number(a.count),
      seed: a.seed ? Number(a.seed) : undefined,
      prefix: a.prefix,
      offlineRate: a['no-offline'] ? 0 : undefined,
    });
  } else throw new Error('Give --fleet <file.json> or --count <N> (see --help)');
  if (a.tokens) {
    const tokens = JSON.parse(fs.readFileSync(a.tokens, 'utf8')) as Record<string, string>;
    for (const dl of fleet.dataloggers) dl.token = tokens[dl.pn] ?? dl.token;
  }
  if (a.interval) for (const dl of fleet.dataloggers) dl.collectInterval = Number(a.interval);
  if (a['no-offline']) for (const dl of fleet.dataloggers) dl.offlineRate = 0;
  for (const f of a.fault ?? []) {
    const m = /^(.+)=(\d+)$/.exec(f);
    const dl = m && fleet.dataloggers.find((d) => d.devices.some((x) => x.sn === m[1]));
    if (!m || !dl) throw new Error(`Bad --fault ${f} (give <device SN>=<fault code> of a device in the fleet)`);
    forceFault(dl, m[1]!, Number(m[2]));
  }
  if (a['print-fleet']) {
    console.log(JSON.stringify(fleet, null, 2));
    return 0;
  }
  const target = a.server ?? a.url;
  if (!target) throw new Error('Give --url mqtt://127.0.0.1:<port> or --server http://127.0.0.1:<port>');
  assertLoopback(target);
  const log: Logger = a.quiet
    ? { info: () => undefined, warn: () => undefined }
    : { info: (m) => console.log(m), warn: (m) => console.warn(m) };
  const publisherFor = (spec: FleetSpec['dataloggers'][number]) =>
    a.server
      ? new HttpPublisher({ url: a.server, pn: spec.pn, token: spec.token })
      : new MqttPublisher({ url: a.url!, pn: spec.pn, token: spec.token });

  const speed = a.speed ? Number(a.speed) : 1;
  const start = a.start ? (/^\d+$/.test(a.start) ? Number(a.start) : Date.parse(a.start)) : Date.now();
  if (!Number.isFinite(start)) throw new Error(`Bad --start ${a.start}`);
  const clock = simClock({ speed, start });
  let sims;
  if (a.history) {
    const t0 = Date.now();
    const h = await generateHistory({ fleet, days: Number(a.history), to: start });
    sims = h.sims;
    const byPn = new Map<string, typeof h.frames>();
    for (const f of h.frames) byPn.set(f.pn, [...(byPn.get(f.pn) ?? []), f]);
    log.info(`History: ${h.count} frames generated in ${Date.now() - t0} ms, sending…`);
    const t1 = Date.now();
    let sent = 0;
    let failed = 0;
    await Promise.all(
      fleet.dataloggers.map(async (spec) => {
        const p = publisherFor(spec);
        try {
          await p.connect();
          for (const f of byPn.get(spec.pn) ?? []) {
            await p.publishFrame(f).then(
              () => (sent += 1),
              () => (failed += 1),
            );
          }
        } catch (e) {
          failed += byPn.get(spec.pn)?.length ?? 0;
          log.warn(`${spec.pn}: ${(e as Error).message}`);
        } finally {
          await p.close();
        }
      }),
    );
    const s = (Date.now() - t1) / 1000;
    console.log(
      `History: sent ${sent} frames (${failed} failed) in ${s.toFixed(1)} s = ${(sent / Math.max(s, 1e-3)).toFixed(0)} frames/s`,
    );
    if (a['history-only']) return failed > 0 ? 1 : 0;
  }

  const live = new LiveFleet(fleet.dataloggers, {
    clock,
    log,
    sims,
    offlineSpells: !a['no-offline'],
    tickMs: Math.max(
      100,
      Math.min(1000, (Math.min(...fleet.dataloggers.map((d) => d.collectInterval)) * 1000) / speed / 2),
    ),
    publisherFor,
  });
  console.log(`Simulating ${fleet.dataloggers.length} dataloggers → ${target} (speed ×${speed})`);
  live.start();
  const report = setInterval(() => {
    const s = live.stats();
    console.log(`sent ${s.sent} frames, ${s.heartbeats} heartbeats, ${s.buffered} buffered, ${s.offline} offline`);
  }, 10_000);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (a.duration) setTimeout(done, parseDuration(a.duration));
  });
  clearInterval(report);
  await live.stop();
  const s = live.stats();
  console.log(`Done: sent ${s.sent} frames, ${s.heartbeats} heartbeats, ${s.buffered} still buffered`);
  return 0;
}

const invokedDirectly = process.argv[1] && new URL(import.meta.url).pathname === fs.realpathSync(process.argv[1]);
if (invokedDirectly) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error((e as Error).message);
      process.exit(1);
    },
  );
}
