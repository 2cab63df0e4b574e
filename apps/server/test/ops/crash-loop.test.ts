import fs from 'node:fs';
import { getDefinition, mulberry32 } from '@sunwatch/protocol';
import { sql } from 'kysely';
import type mqtt from 'mqtt';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/db.js';
import { decodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { engines, startTestServer } from '../harness.js';
import { dropScratchDatabase } from '../factories/pg-database.js';
import { connectDatalogger, createDatalogger, type TestDatalogger } from '../factories/telemetry-ingest.js';
import { dayRollups } from '../factories/telemetry-rows.js';
import { buildCompiledIfStale, compiledEnv, FramePublisher, spawnCompiled } from './compiled-server.js';

/**
 * Issue 16, "Crash safety": the compiled server is killed with SIGKILL at a random moment of heavy
 * ingestion, CRASH_KILLS times in a row, and started again each time on the same database. The
 * dataloggers behave like real ones: a frame without PUBACK when the connection dies is sent again
 * after the restart. With the embedded broker the broker dies with the server, so "acknowledged"
 * is a PUBACK the datalogger received before the kill. After every kill: every acknowledged frame
 * is stored, once; nothing is stored that was never sent; day rollups count exactly the stored
 * samples; SQLite passes `PRAGMA integrity_check`. At the end (one more life that resends what is
 * left, then SIGTERM): each day rollup row equals the aggregate of its decoded samples, the latest
 * values are the newest sample, no frame was refused. Prints the figure.
 *
 *   CRASH_KILLS   kills per database (default 3; `npm run test:crash` runs 100)
 *   CRASH_SEED    seed of the kill moments (default: random, printed)
 */
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sunwatch:sunwatch@127.0.0.1:5432/postgres';
const KILLS = Math.max(1, Number(process.env.CRASH_KILLS ?? 3) || 3);
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DATALOGGERS = 4;
/** QoS 1 publishes each datalogger keeps in flight. */
const WINDOW = 16;
/** The kill comes this long (uniformly random, ms) after the first PUBACK of a life. */
const KILL_WITHIN_MS = 400;
/** A start on the shared 2-core machine can take several seconds (module loading); a hang fails. */
const START_TIMEOUT_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stored sample timestamps per datalogger (rows, not distinct: a duplicate would show). */
async function storedTs(h: DatabaseHandle, dl: TestDatalogger): Promise<number[]> {
  const rows = await h.db
    .selectFrom('samples')
    .innerJoin('devices', 'devices.id', 'samples.device_id')
    .select('samples.ts')
    .where('devices.datalogger_id', '=', dl.id)
    .execute();
  return rows.map((r) => Number(r.ts));
}

interface Tally {
  /** Acknowledged frames not stored (must stay 0). */
  lost: number;
  /** Stored rows beyond one per frame (must stay 0). */
  duplicated: number;
  /** Frames without PUBACK at a kill that were already stored (the resend must not store them twice). */
  storedUnacked: number;
}

/**
 * The checks after a kill (server down) or at the end: acknowledged ⊆ stored ⊆ sent, once each;
 * Σ day-rollup sample counts = stored samples per datalogger; SQLite's integrity check.
 */
async function checkAfterKill(
  h: DatabaseHandle,
  publishers: FramePublisher[],
  tally: Tally,
  where: string,
): Promise<void> {
  if (h.sqlite) expect(h.sqlite.pragma('integrity_check', { simple: true }), where).toBe('ok');
  for (const p of publishers) {
    const rows = await storedTs(h, p.dl);
    const have = new Set(rows);
    tally.duplicated += rows.length - have.size;
    const lost = [...p.acked].filter((ts) => !have.has(ts));
    tally.lost += lost.length;
    expect(lost, `${where}: acknowledged but not stored (${p.dl.pn})`).toEqual([]);
    expect(rows.length, `${where}: a frame stored twice (${p.dl.pn})`).toBe(have.size);
    expect(
      rows.filter((ts) => !p.sent.has(ts)),
      `${where}: stored, never sent`,
    ).toEqual([]);
    tally.storedUnacked += p.pending().filter((ts) => have.has(ts)).length;
    const days = await sql<{ n: number | string | null }>`select sum(dd.samples) as n from device_days dd
      join devices d on d.id = dd.device_id where d.datalogger_id = ${p.dl.id}`.execute(h.db);
    expect(Number(days.rows[0]?.n ?? 0), `${where}: Σ device_days.samples = stored samples (${p.dl.pn})`).toBe(
      rows.length,
    );
  }
}

/** The full check at the end: every day rollup row = the aggregate of its decoded samples; latest = newest. */
async function checkRollups(h: DatabaseHandle, dls: TestDatalogger[]): Promise<number> {
  let dayRows = 0;
  for (const dl of dls) {
    const devices = await h.db
      .selectFrom('devices')
      .innerJoin('dataloggers', 'dataloggers.id', 'devices.datalogger_id')
      .select(['devices.id', 'devices.devcode', 'devices.last_sample_at', 'dataloggers.tz_offset'])
      .where('devices.datalogger_id', '=', dl.id)
      .execute();
    expect(devices).toHaveLength(1);
    for (const dev of devices) {
      const def = getDefinition(Number(dev.devcode))!;
      const samples = await h.db
        .selectFrom('samples')
        .select(['ts', 'data'])
        .where('device_id', '=', dev.id)
        .orderBy('ts')
        .execute();
      const expected = dayRollups(
        def,
        dev.id,
        samples.map((s) => ({ ts: Number(s.ts), values: decodeSample(def, s.data) })),
        Number(dev.tz_offset),
      ).sort((a, b) => Number(a.day) - Number(b.day));
      const actual = await h.db
        .selectFrom('device_days')
        .selectAll()
        .where('device_id', '=', dev.id)
        .orderBy('day')
        .execute();
      expect(actual.map((r) => Number(r.day))).toEqual(expected.map((r) => Number(r.day)));
      actual.forEach((row, k) => {
        const want = expected[k] as Record<string, unknown>;
        const got = row as unknown as Record<string, unknown>;
        for (const [col, v] of Object.entries(want)) {
          const where = `device ${dev.id} day ${row.day} ${col}`;
          if (v === null || v === undefined) expect(got[col] ?? null, where).toBeNull();
          else expect(Number(got[col]), where).toBeCloseTo(Number(v), 6);
        }
      });
      dayRows += actual.length;
      const newest = samples.length ? Number(samples[samples.length - 1]!.ts) : null;
      const latest = await h.db
        .selectFrom('device_latest')
        .select('ts')
        .where('device_id', '=', dev.id)
        .executeTakeFirst();
      expect(latest ? Number(latest.ts) : null, `latest of device ${dev.id}`).toBe(newest);
      expect(dev.last_sample_at === null ? null : Number(dev.last_sample_at)).toBe(newest);
    }
  }
  if (!h.sqlite) {
    // PostgreSQL: the primary key makes a duplicate impossible; count again without trusting an index.
    const dup = await sql<{ n: number | string }>`select count(*) as n from
      (select device_id, ts from samples group by device_id, ts having count(*) > 1) x`.execute(h.db);
    expect(Number(dup.rows[0]!.n)).toBe(0);
  }
  const bad = await h.db.selectFrom('dataloggers').select(['pn', 'bad_frames']).where('bad_frames', '>', 0).execute();
  expect(bad, 'frames refused as bad').toEqual([]);
  return dayRows;
}

describe.each(engines)('crash loop: SIGKILL during heavy ingestion, restart ($name)', (engine) => {
  beforeAll(() => buildCompiledIfStale());

  it(
    `${KILLS} kills in a row: every acknowledged frame stored exactly once, rollups agree, database intact`,
    { timeout: 60_000 + KILLS * 15_000 },
    async () => {
      // mulberry32: seeded, so a failing run can be repeated with CRASH_SEED
      const random = mulberry32(SEED + (engine.name === 'postgres' ? 1 : 0));
      const prep = await startTestServer(engine, { seed: false });
      const dls: TestDatalogger[] = [];
      for (let i = 0; i < DATALOGGERS; i++) dls.push(await createDatalogger(prep.ctx, { withPlant: false }));
      const { dataDir, config } = prep;
      await prep.close();
      const env = compiledEnv(dataDir, config, { SHUTDOWN_TIMEOUT_MS: '15000' });
      const publishers = dls.map((d) => new FramePublisher(d, WINDOW));
      const acked = () => publishers.reduce((n, p) => n + p.acked.size, 0);
      const tally: Tally = { lost: 0, duplicated: 0, storedUnacked: 0 };
      const started = Date.now();
      let pgCheck: DatabaseHandle | undefined;
      let lastOutput = '';
      try {
        for (let life = 0; life <= KILLS; life++) {
          const final = life === KILLS;
          const t0 = Date.now();
          const child = await spawnCompiled(env, START_TIMEOUT_MS).catch((e: Error) => {
            throw new Error(
              `life ${life} (after ${life} kills, ${((Date.now() - t0) / 1000).toFixed(1)} s): ${e.message}`,
            );
          });
          const tUp = Date.now();
          lastOutput = child.output();
          let clients: mqtt.MqttClient[] = [];
          try {
            const before = acked();
            clients = await Promise.all(dls.map((d) => connectDatalogger(child.mqttPort, d.pn, d.token)));
            const runs = publishers.map((p, k) => p.run(clients[k]!, { newFrames: !final }));
            if (!final) {
              // Ingestion is flowing (resends first, then new frames): kill at a random moment of it.
              const until = Date.now() + 20_000;
              while (acked() === before) {
                if (Date.now() > until) throw new Error(`life ${life}: nothing acknowledged:\n${child.output()}`);
                await sleep(5);
              }
              const tAck = Date.now();
              await sleep(random() * KILL_WITHIN_MS);
              child.proc.kill('SIGKILL');
              const exit = await child.exited;
              expect(exit, `life ${life} ended before the kill:\n${child.output()}`).toEqual({
                code: null,
                signal: 'SIGKILL',
              });
              await Promise.all(runs);
              if (process.env.CRASH_DEBUG)
                console.log(
                  `life ${life}: up ${tUp - t0} ms, first ack ${tAck - tUp} ms, killed at ${Date.now() - t0} ms`,
                );
            } else {
              // The last life: what was never acknowledged is sent again until acknowledged.
              await Promise.all(runs);
              for (let k = 0; k < publishers.length; k++) {
                let tries = 0;
                while (publishers[k]!.pending().length > 0) {
                  if (++tries > 5) throw new Error(`frames never acknowledged:\n${child.output()}`);
                  clients[k]!.end(true);
                  clients[k] = await connectDatalogger(child.mqttPort, dls[k]!.pn, dls[k]!.token);
                  await publishers[k]!.run(clients[k]!, { newFrames: false });
                }
              }
              child.proc.kill('SIGTERM');
              expect(await child.exited, child.output()).toEqual({ code: 0, signal: null });
            }
          } finally {
            for (const c of clients) c.end(true);
            if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
            lastOutput = child.output();
          }
          // The server is down: check the database as the next start will find it.
          let h: DatabaseHandle;
          if (config.databaseUrl) h = pgCheck ??= openDatabase(config);
          else h = openDatabase(config);
          try {
            await checkAfterKill(h, publishers, tally, final ? 'at the end' : `after kill ${life + 1}`);
            if (final) {
              const dayRows = await checkRollups(h, dls);
              const resent = publishers.reduce((n, p) => n + p.resent, 0);
              const frames = acked();
              console.log(
                `[crash ${engine.name}] kills ${KILLS}, frames acked ${frames}, lost ${tally.lost}, ` +
                  `duplicated ${tally.duplicated}; resent after a kill ${resent} (of which already stored ` +
                  `${tally.storedUnacked}); ${dayRows} day rollups = their samples; ` +
                  `${h.sqlite ? 'integrity_check ok; ' : ''}seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
              );
              expect(tally).toMatchObject({ lost: 0, duplicated: 0 });
              expect(frames).toBeGreaterThanOrEqual(KILLS);
              expect(publishers.every((p) => p.pending().length === 0)).toBe(true);
            }
          } finally {
            if (h.sqlite) await h.close();
          }
        }
      } catch (e) {
        console.log(`[crash ${engine.name}] seed ${SEED}; last server output:\n${lastOutput}`);
        throw e;
      } finally {
        await pgCheck?.close();
        if (config.databaseUrl) await dropScratchDatabase(PG_URL, new URL(config.databaseUrl).pathname.slice(1));
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
