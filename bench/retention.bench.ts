/**
 * Retention bench (issue 16): does pruning the raw samples slow ingestion down?
 *
 *   npx tsx bench/retention.bench.ts [--duration 12] [--dataloggers 50] [--window 8] [--old 600000]
 *                                    [--batch 2000] [--database-url postgres://…]
 *
 * The server runs in this process (SQLite in a temp dir, or a scratch PostgreSQL database made on
 * the `--database-url` server, `--pg` is the same), with the embedded broker; a CHILD process
 * (bench/lib/fleet.ts, the ingest bench's fleet) publishes frames over MQTT (QoS 1,
 * `--window` in flight per datalogger, 2 devcode-2341 devices per frame). First `--old` samples
 * older than the retention are written (3 years back, 500 devices). Then three phases of
 * `--duration` seconds each (after a 4 s warm-up): ingestion alone, ingestion while the retention
 * prune runs in a loop (SampleRetention.prune, `--batch` rows per DELETE on SQLite; on PostgreSQL
 * the old months are partitions, dropped whole), ingestion alone again. Prints datapoints/s and
 * publish→stored p50/p99 of each phase, and what the prune removed during its phase. Never fails
 * on time.
 */
import { sql } from 'kysely';
import { startServer } from '../apps/server/src/index.js';
import { monthStart, SampleRetention } from '../apps/server/src/db/sample-retention.js';
import { benchDatabase, createFleet, numArg, percentile, startLoad, strArg } from './lib/fleet.js';

const DAY = 86_400_000;

await main();

// ------------------------------------------------------------------ server side (this process)

async function main(): Promise<void> {
  const DURATION = numArg('duration', 12) * 1000;
  const LOGGERS = numArg('dataloggers', 50);
  const WINDOW = numArg('window', 8);
  const OLD = numArg('old', 600_000);
  const BATCH = numArg('batch', 2000);

  const bench = await benchDatabase('retention', strArg('database-url') ?? strArg('pg'));
  const server = await startServer(bench.config);
  const ctx = server.app.ctx;
  const db = ctx.db;
  const engine = ctx.dialect.engine;
  const now = Date.now();
  const retention = new SampleRetention(db, engine, { batch: BATCH, partitionsAhead: 2 });
  const before = now - 730 * DAY;

  // The backlog: OLD samples 3 years back, 500 devices, one every 5 minutes.
  const oldStart = now - 3 * 365 * DAY;
  const perDevice = Math.ceil(OLD / 500);
  const blob = Buffer.alloc(170, 7);
  const t0 = performance.now();
  if (engine === 'postgres') {
    for (let m = monthStart(oldStart); m < monthStart(oldStart + perDevice * 300_000, 1); m = monthStart(m, 1)) {
      await retention.createPartition(m);
    }
    await sql`insert into samples (device_id, ts, data)
      select 800000 + d, ${oldStart}::bigint + k * 300000, ${blob}
      from generate_series(0, 499) d, generate_series(0, ${perDevice - 1}) k`.execute(db);
  } else {
    const raw = ctx.database.sqlite!;
    const ins = raw.prepare('insert into samples (device_id, ts, data) values (?, ?, ?)');
    raw.transaction(() => {
      for (let d = 0; d < 500; d++)
        for (let k = 0; k < perDevice; k++) ins.run(800000 + d, oldStart + k * 300_000, blob);
    })();
  }
  const oldRows = 500 * perDevice;
  console.log(
    `retention bench (${engine}): ${LOGGERS} dataloggers × window ${WINDOW}, 2 devices per frame, ` +
      `${DURATION / 1000} s per phase; backlog ${oldRows.toLocaleString('en')} old samples written in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s; prune batch ${BATCH}`,
  );

  const loggers = await createFleet(ctx, LOGGERS, 'R', 0);
  const m = ctx.services.telemetry.metrics;

  const phase = async (label: string, baseTs: number, during?: () => Promise<string>, durationMs = DURATION) => {
    const load = await startLoad({ port: server.mqtt!.port, loggers, durationMs, window: WINDOW, devices: 2, baseTs });
    load.go();
    const dp0 = m.datapointsStored;
    const s0 = performance.now();
    const side = during?.();
    const report = await load.report;
    await ctx.services.telemetry.ingest.drain();
    const secs = (performance.now() - s0) / 1000;
    const extra = side ? await side : '';
    const lat = Float64Array.from(report.latencies).sort();
    const pct = (p: number) => percentile(lat, p);
    const dps = (m.datapointsStored - dp0) / secs;
    console.log(
      `  ${label.padEnd(26)} ${Math.round(dps).toLocaleString('en').padStart(9)} datapoints/s, ` +
        `publish→stored p50 ${pct(50).toFixed(1)} ms / p99 ${pct(99).toFixed(1)} ms, acked ${report.acked}/${report.sent}` +
        (extra ? `; ${extra}` : ''),
    );
    return dps;
  };

  await phase('warm-up (not counted)', now - 5 * DAY, undefined, 4000);
  const alone1 = await phase('ingestion alone', now - 30 * DAY);
  let stop = false;
  const pruning = await phase('ingestion while pruning', now - 10 * DAY, async () => {
    const p0 = performance.now();
    let rows = 0;
    let batches = 0;
    let dropped = 0;
    let runs = 0;
    let maxStmtMs = 0;
    let last = performance.now();
    while (!stop) {
      const r = await retention.prune(before, {
        maxBatches: 50,
        onBatch: () => {
          const t = performance.now();
          maxStmtMs = Math.max(maxStmtMs, t - last);
          last = t;
        },
      });
      runs += 1;
      rows += r.rows;
      batches += r.batches;
      dropped += r.dropped.length;
      last = performance.now();
      if (!r.more) break;
    }
    const ms = performance.now() - p0;
    return engine === 'postgres'
      ? `prune dropped ${dropped} month partitions in ${ms.toFixed(0)} ms (${runs} runs)`
      : `prune removed ${rows.toLocaleString('en')} rows in ${batches} batches, ${(ms / 1000).toFixed(1)} s ` +
          `(${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s, longest batch gap ${maxStmtMs.toFixed(1)} ms)`;
  });
  stop = true;
  const alone2 = await phase('ingestion alone, again', now - 20 * DAY);
  const alone = (alone1 + alone2) / 2;
  const left = Number(
    (await sql<{ n: number }>`select count(*) as n from samples where ts < ${before}`.execute(db)).rows[0]!.n,
  );
  console.log(
    `  ratio ${(pruning / alone).toFixed(2)} (pruning / mean of the two phases alone); old samples left ${left} (` +
      `${engine === 'postgres' ? 'whole months past the retention are dropped' : 'all rows past the retention'})`,
  );
  await server.close();
  await bench.cleanup();
}
