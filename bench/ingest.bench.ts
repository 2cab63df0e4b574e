/**
 * Ingestion benchmark (issue 3): frames in over MQTT → decoded, stored, day rollups and latest
 * values current, on SQLite or PostgreSQL (issue 16), with the embedded broker.
 *
 *   npx tsx bench/ingest.bench.ts [--duration 20] [--dataloggers 100] [--window 8]
 *                                 [--devices 2] [--warmup 3] [--batch-ms 5] [--fw] [--bindings]
 *                                 [--database-url postgres://…]
 *
 * The server runs in this process (SQLite in a temp dir, or with `--database-url` a scratch
 * PostgreSQL database created on that server and dropped after the run; embedded broker on a free
 * loopback port); the load generator runs in a CHILD process (bench/lib/fleet.ts, so it does not share the server's thread):
 * `--dataloggers` MQTT clients, each authenticated with its own device token, each keeping
 * `--window` QoS 1 publishes in flight. Every frame carries `--devices` devcode-2341 devices
 * (83 values each) as register blocks; with `--fw` each also carries its firmware version (`fw`, the
 * same all run: after the first frame the server writes nothing for it). The embedded broker acknowledges a frame (PUBACK) only
 * after its batch committed, so publish→PUBACK latency is publish→stored latency.
 *
 * Prints: datapoints/s sustained (values of newly stored samples, counted after the commit that
 * also updated device_latest and device_days; measured after `--warmup` seconds), server CPU
 * seconds per million datapoints, bytes per datapoint on disk (SQLite file after a WAL
 * checkpoint, or pg_database_size, net of the empty database), p50/p99 publish→stored latency, and a consistency
 * check (samples = Σ device_days.samples, latest = newest sample). Never fails on time.
 */
import fs from 'node:fs';
import { sql, type RawBuilder } from 'kysely';
import { startServer } from '../apps/server/src/index.js';
import { benchDatabase, createFleet, hasFlag, numArg, percentile, startLoad, strArg } from './lib/fleet.js';

await main();

// ------------------------------------------------------------------ server side (this process)

async function main(): Promise<void> {
  const DURATION = numArg('duration', 20) * 1000;
  const LOGGERS = numArg('dataloggers', 100);
  const WINDOW = numArg('window', 8);
  const DEVICES = numArg('devices', 2);
  const WARMUP = numArg('warmup', 3) * 1000;
  const BATCH_MS = numArg('batch-ms', 5);

  const bench = await benchDatabase('ingest', strArg('database-url'), { INGEST_BATCH_MS: String(BATCH_MS) });
  const dbPath = bench.sqlitePath;
  const server = await startServer(bench.config);
  const ctx = server.app.ctx;
  const db = ctx.db;
  const raw = ctx.database.sqlite;
  const engine = ctx.dialect.engine;
  const now = Date.now();

  // Fleet: N dataloggers (unbound, UTC+1) with device tokens.
  const loggers = await createFleet(ctx, LOGGERS, 'B', 3600);
  if (hasFlag('bindings')) {
    // Issue 14 devcode bindings: every frame is checked against them (cached, reloaded every 2 s).
    // One prefix binding covers the whole fleet (2341 allowed), 40 others cover nothing of it.
    const bind = (devcode: number, scope: string, type: string, from: string, to: string) =>
      sql`insert into protocol_bindings (devcode, scope, type_code, pn_from, pn_to, created_at, updated_at)
        values (${devcode}, ${scope}, ${type}, ${from}, ${to}, ${now}, ${now})`.execute(db);
    await bind(2341, 'prefix', '', 'B', '');
    for (let i = 0; i < 20; i++) await bind(5121, 'range', '', `Z${i}0000`, `Z${i}9999`);
    for (let i = 0; i < 20; i++) await bind(2428, 'type', String.fromCharCode(65 + i), '', '');
  }
  /** Bytes on disk: the SQLite file after a WAL checkpoint, or the PostgreSQL database. */
  const diskBytes = async () => {
    if (raw && dbPath) {
      raw.pragma('wal_checkpoint(TRUNCATE)');
      return fs.statSync(dbPath).size;
    }
    await sql`checkpoint`.execute(db).catch(() => undefined); // superuser only; sizes are right without it
    return Number((await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(db)).rows[0]!.n);
  };
  const emptyBytes = await diskBytes();
  /**
   * PostgreSQL: CPU seconds of this database's backends (/proc, 100 ticks/s), by pid. The work of the
   * write path is split between the server and these, so both are printed.
   */
  const backendCpu = async (): Promise<Map<number, number>> => {
    const cpu = new Map<number, number>();
    if (engine !== 'postgres') return cpu;
    const rows = await sql<{
      pid: number;
    }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
    for (const { pid } of rows.rows) {
      try {
        const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        cpu.set(pid, (Number(f[11]) + Number(f[12])) / 100);
      } catch {
        // not on this machine, or gone
      }
    }
    return cpu;
  };

  const load = await startLoad({
    port: server.mqtt!.port,
    loggers,
    durationMs: DURATION,
    window: WINDOW,
    devices: DEVICES,
    baseTs: now - 20 * 86400_000,
    ...(hasFlag('fw') ? { fw: 'V3.1.2' } : {}),
  });

  const m = ctx.services.telemetry.metrics;
  console.log(
    `ingest bench: ${LOGGERS} dataloggers × window ${WINDOW}, ${DEVICES} × devcode 2341 (83 values) per frame, ` +
      `${DURATION / 1000} s (warm-up ${WARMUP / 1000} s), batch ${BATCH_MS} ms` +
      `${hasFlag('fw') ? ', fw in every device entry' : ''}` +
      `${hasFlag('bindings') ? ', 41 devcode bindings' : ''}, ${engine === 'postgres' ? 'PostgreSQL (scratch database)' : `SQLite ${dbPath}`}`,
  );
  load.go();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, WARMUP));
  const pg0 = await backendCpu();
  const w0 = { t: performance.now(), dp: m.datapointsStored, samples: m.samplesStored, cpu: process.cpuUsage() };
  const ticker = setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    process.stdout.write(
      `  t=${s.toFixed(0)}s stored ${m.datapointsStored.toLocaleString('en')} dp, queue ${m.queued}\r`,
    );
  }, 1000);
  await new Promise((r) => setTimeout(r, Math.max(0, DURATION - WARMUP)));
  const w1 = { t: performance.now(), dp: m.datapointsStored, samples: m.samplesStored, cpu: process.cpuUsage(w0.cpu) };
  const pg1 = await backendCpu();
  let pgCpuSec = 0;
  for (const [pid, sec] of pg1) pgCpuSec += sec - (pg0.get(pid) ?? 0);
  clearInterval(ticker);
  const report = await load.report;
  await ctx.services.telemetry.ingest.drain();
  const totalMs = performance.now() - t0;

  // Consistency: what is counted is stored and reflected in rollups and latest values.
  const count = async (q: RawBuilder<{ n: number | string }>) => Number((await q.execute(db)).rows[0]!.n);
  const samples = await count(sql`select count(*) as n from samples`);
  const daySamples = await count(sql`select coalesce(sum(samples), 0) as n from device_days`);
  const devices = await count(sql`select count(*) as n from devices`);
  const latestOk = await count(
    sql`select count(*) as n from device_latest l where l.ts = (select max(ts) from samples s where s.device_id = l.device_id)`,
  );
  const bytes = await diskBytes();
  const pageSize = raw ? Number(raw.pragma('page_size', { simple: true })) : 8192;

  const dpPerSec = ((w1.dp - w0.dp) / (w1.t - w0.t)) * 1000;
  const framesPerSec = (((w1.samples - w0.samples) / (w1.t - w0.t)) * 1000) / DEVICES;
  const cpuSec = (w1.cpu.user + w1.cpu.system) / 1e6;
  const cpuPerMillion = cpuSec / ((w1.dp - w0.dp) / 1e6);
  const lat = Float64Array.from(report.latencies).sort();
  const pct = (p: number) => percentile(lat, p);
  const dpTotal = m.datapointsStored;

  const rows: Array<[string, string]> = [
    ['datapoints/s sustained (stored + rollups + latest)', Math.round(dpPerSec).toLocaleString('en')],
    ['frames/s sustained', Math.round(framesPerSec).toLocaleString('en')],
    ['server CPU s per million datapoints', cpuPerMillion.toFixed(2)],
    ['server CPU utilisation (cores)', (cpuSec / ((w1.t - w0.t) / 1000)).toFixed(2)],
    ...(engine === 'postgres'
      ? ([
          ['PostgreSQL backends CPU s per million datapoints', (pgCpuSec / ((w1.dp - w0.dp) / 1e6)).toFixed(2)],
          [
            'server + backends CPU s per million datapoints',
            ((cpuSec + pgCpuSec) / ((w1.dp - w0.dp) / 1e6)).toFixed(2),
          ],
        ] as Array<[string, string]>)
      : []),
    ['bytes per datapoint on disk (net of empty db)', ((bytes - emptyBytes) / dpTotal).toFixed(2)],
    ['bytes per datapoint on disk (whole file)', (bytes / dpTotal).toFixed(2)],
    ['publish→stored latency p50 / p99 (ms)', `${pct(50).toFixed(1)} / ${pct(99).toFixed(1)}`],
    ['datapoints stored (whole run)', dpTotal.toLocaleString('en')],
    ['frames sent / acked / errors', `${report.sent} / ${report.acked} / ${report.errors}`],
    [
      'batches (avg frames per batch, ms writing)',
      `${m.batches} (${(m.framesAccepted / Math.max(1, m.batches)).toFixed(1)}, ${(m.batchMsTotal / 1000).toFixed(1)} s)`,
    ],
    ['load generator CPU (cores)', (report.cpuSec / (report.sendingMs / 1000)).toFixed(2)],
    ['bad frames', String(m.badFrames)],
    ['device firmware writes', String(m.deviceFirmwareUpdates)],
    [
      'consistency: samples = Σ day samples = stored; latest = newest',
      `${samples} = ${daySamples} = ${m.samplesStored}; ${latestOk}/${devices} → ${
        samples === daySamples && samples === m.samplesStored && latestOk === devices ? 'OK' : 'MISMATCH'
      }`,
    ],
    ['database', `${engine} ${(bytes / 1e6).toFixed(1)} MB, page ${pageSize} B, run ${(totalMs / 1000).toFixed(1)} s`],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log('\n');
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  await server.close();
  await bench.cleanup();
}
