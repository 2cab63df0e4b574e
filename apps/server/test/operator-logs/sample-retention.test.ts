import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiCallError, type AuthDat } from '@sunwatch/protocol';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest, openDatabase } from '../../src/db/db.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { monthStart, partitionName, SampleRetention } from '../../src/db/sample-retention.js';
import { engines, FIXED_NOW, startTestServer, type ApiClient, type TestServer } from '../harness.js';

/**
 * Issue 16, data retention of the raw samples (docs/operations.md "Data retention"): the days kept
 * are part of the operator's retention setting (queryLogRetention / setLogRetention, audited); the
 * prune job removes old samples in bounded batches (SQLite) or drops whole month partitions
 * (PostgreSQL, plus bounded deletes in the default partition); day rollups are never touched;
 * newer samples stay. On PostgreSQL the migration converts an existing table with its rows.
 */
const DAY = 86_400_000;
const DEV = [910001, 910002, 910003];

async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

describe.each(engines)('sample retention ($name)', (engine) => {
  let s: TestServer;
  let operator: ApiClient;
  const now = FIXED_NOW;
  const count = async (where = sql`true`) =>
    Number((await sql<{ n: number }>`select count(*) as n from samples where ${where}`.execute(s.ctx.db)).rows[0]!.n);

  beforeAll(async () => {
    s = await startTestServer(engine, {
      now: FIXED_NOW,
      config: {
        telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false },
        logRetention: { actionLogDays: 90, collectorLogDays: 90, sampleDays: 730 },
      },
    });
    const r = await s.login('operator', 'Operator_2026');
    expect(r.err).toBe(0);
    const dat = r.dat as AuthDat;
    operator = s.api({ token: dat.token, secret: dat.secret });
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('the sample retention is part of the operator setting (default 730, bounds, audited)', async () => {
    const r0 = await operator.call('queryLogRetention', {});
    expect(r0).toMatchObject({ sampleDays: 730, source: { samples: 'default' }, defaults: { sampleDays: 730 } });
    expect(await errOf(operator.call('setLogRetention', { sampleDays: 29 }))).toBe(6);
    expect(await errOf(operator.call('setLogRetention', { sampleDays: 3651 }))).toBe(6);
    const r1 = await operator.call('setLogRetention', { sampleDays: 60 });
    expect(r1).toMatchObject({ sampleDays: 60, source: { samples: 'setting', actionLog: 'default' } });
    expect(await errOf(operator.call('setLogRetention', { sampleDays: 60 }))).toBe(271);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', 'retention.sample_days')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.before!)).toEqual({ days: 730, source: 'default' });
    expect(JSON.parse(audit[0]!.after!)).toEqual({ days: 60 });
  });

  it('prune: old samples gone in bounded batches, newer kept, rollups kept', async () => {
    const cutoff = now - 60 * DAY;
    const ages = [0, 10, 59, 61, 75, 120, 200, 400]; // days
    const rows: Array<{ device_id: number; ts: number; data: Buffer }> = [];
    for (const d of DEV) {
      for (const a of ages)
        for (let k = 0; k < 3; k++)
          rows.push({ device_id: d, ts: now - a * DAY - k * 60_000, data: Buffer.from([a, k]) });
    }
    // A datalogger with a wrong clock: far past (pruned) and far future (kept).
    for (let k = 0; k < 7; k++) rows.push({ device_id: DEV[0]!, ts: Date.UTC(1971, 0, 1) + k, data: Buffer.from([1]) });
    rows.push({ device_id: DEV[1]!, ts: Date.UTC(2099, 0, 1), data: Buffer.from([2]) });
    await s.ctx.db.insertInto('samples').values(rows).execute();
    await s.ctx.db
      .insertInto('device_days')
      .values(
        ages.map((a, i) => ({
          device_id: DEV[0]!,
          day: 20000101 + i,
          samples: 3,
          first_ts: now - a * DAY,
          last_ts: now - a * DAY,
        })),
      )
      .execute();

    const retention = new SampleRetention(s.ctx.db, s.ctx.dialect.engine, { batch: 4, partitionsAhead: 2 });
    if (engine.name === 'postgres') {
      // Months of the test data, created from the default partition (rows move into them).
      for (let m = monthStart(now - 400 * DAY); m <= monthStart(now); m = monthStart(m, 1)) {
        if (!(await retention.partitions()).some((p) => p.from === m)) await retention.createPartition(m);
      }
      const where = await sql<{ part: string; n: number }>`select tableoid::regclass::text as part, count(*) as n
        from samples group by 1`.execute(s.ctx.db);
      const byPart = new Map(where.rows.map((r) => [r.part, Number(r.n)]));
      expect(byPart.get(partitionName(monthStart(now)))).toBe(3 * 3 * 2); // ages 0 and 10 (June 5, June 15)
      expect(byPart.get('samples_default')).toBe(8); // 1971 ×7, 2099
    }

    // Bounded: at most `batch` rows per statement, at most `maxBatches` statements per run.
    const sizes: number[] = [];
    const first = await retention.prune(cutoff, { maxBatches: 2, onBatch: (n) => sizes.push(n) });
    expect(first.more).toBe(true);
    expect(first.batches).toBe(2);
    expect(sizes.every((n) => n <= 4)).toBe(true);
    const rest = await retention.prune(cutoff, { onBatch: (n) => sizes.push(n) });
    expect(rest.more).toBe(false);
    expect(sizes.every((n) => n >= 1 && n <= 4)).toBe(true);

    const cutAt = engine.name === 'postgres' ? monthStart(cutoff) : cutoff;
    expect(await count(sql`ts < ${cutAt}`)).toBe(0);
    expect(await count(sql`ts >= ${cutoff} and ts <= ${now}`)).toBe(DEV.length * 3 * 3); // ages 0, 10, 59
    expect(await count(sql`ts > ${now}`)).toBe(1);
    if (engine.name === 'postgres') {
      // Months that end at or before the cut-off are dropped whole; the cut-off's month stays whole.
      const parts = (await retention.partitions()).map((p) => p.name);
      expect(parts).not.toContain(partitionName(monthStart(now - 120 * DAY)));
      expect(parts).toContain(partitionName(monthStart(cutoff)));
      expect([...first.dropped, ...rest.dropped]).toContain(partitionName(monthStart(now - 400 * DAY)));
      expect(await count(sql`ts >= ${monthStart(cutoff)} and ts < ${cutoff}`)).toBe(DEV.length * 3 * 2); // ages 61 and 75 (April)
    } else {
      expect(first.rows + rest.rows).toBe(DEV.length * 3 * 5 + 7); // ages 61..400, the 1971 rows
    }
    // Rollups are kept for ever.
    expect(
      Number(
        (await sql<{ n: number }>`select count(*) as n from device_days where device_id = ${DEV[0]!}`.execute(s.ctx.db))
          .rows[0]!.n,
      ),
    ).toBe(ages.length);

    // The prune job's service path applies the operator's 60 days too, and creates months ahead.
    const again = await s.ctx.services.operatorLogs.prune();
    expect(again.samples?.rows).toBe(0);
    if (engine.name === 'postgres') {
      const parts = (await retention.partitions()).map((p) => p.name);
      for (let i = 0; i <= 2; i++) expect(parts).toContain(partitionName(monthStart(now, i)));
      // The ingest writer's ON CONFLICT still works on the partitioned table.
      const dup = await sql<{
        ts: number;
      }>`insert into samples (device_id, ts, data) values (${DEV[2]!}, ${now}::bigint, ${Buffer.from([0])})
        on conflict do nothing returning ts`.execute(s.ctx.db);
      expect(dup.rows).toHaveLength(0);
    } else {
      expect(again.partitionsCreated).toEqual([]);
    }
  });
});

describe.each(engines.filter((e) => e.name === 'postgres'))('samples partition migration ($name)', (engine) => {
  it('converts an existing samples table keeping every row, the key and ON CONFLICT', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-part-'));
    const target = await engine.createDatabase(dir);
    const handle = openDatabase({ databaseUrl: target.databaseUrl, sqlitePath: target.sqlitePath });
    try {
      const migrator = new Migrator({ db: handle.db, provider: migrationProvider(handle.dialect) });
      const to = await migrator.migrateTo('0037-recharge-orders');
      expect(to.error).toBeUndefined();
      const real = Date.now();
      const rows = [
        { device_id: 1, ts: real, data: Buffer.from([1]) },
        { device_id: 1, ts: real - 95 * DAY, data: Buffer.from([2]) },
        { device_id: 2, ts: real - 95 * DAY, data: Buffer.from([3]) },
        { device_id: 2, ts: Date.UTC(1980, 5, 1), data: Buffer.from([4]) },
      ];
      await handle.db.insertInto('samples').values(rows).execute();
      await migrateToLatest(handle);
      const got = await sql<{ device_id: number; ts: number; data: Buffer; part: string }>`select device_id, ts, data,
        tableoid::regclass::text as part from samples order by ts`.execute(handle.db);
      expect(got.rows.map((r) => [r.device_id, Number(r.ts), [...r.data]])).toEqual(
        [...rows].sort((a, b) => a.ts - b.ts).map((r) => [r.device_id, r.ts, [...r.data]]),
      );
      const parts = Object.fromEntries(got.rows.map((r) => [Number(r.ts), r.part]));
      expect(parts[real]).toBe(partitionName(monthStart(real)));
      expect(parts[real - 95 * DAY]).toBe(partitionName(monthStart(real - 95 * DAY)));
      expect(parts[Date.UTC(1980, 5, 1)]).toBe('samples_default');
      const kind = await sql<{ relkind: string }>`select relkind from pg_class where relname = 'samples'`.execute(
        handle.db,
      );
      expect(kind.rows[0]!.relkind).toBe('p');
      const dup = await sql`insert into samples (device_id, ts, data) values (1, ${real}::bigint, ${Buffer.from([9])})
        on conflict do nothing`.execute(handle.db);
      expect(Number(dup.numAffectedRows)).toBe(0);
      const created = await new SampleRetention(handle.db, 'postgres').ensurePartitions(real);
      expect(created).toEqual([]); // the migration already made the current month and two ahead
    } finally {
      await handle.close();
      await target.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
