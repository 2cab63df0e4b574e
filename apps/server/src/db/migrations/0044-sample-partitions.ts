import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import { monthStart, partitionName, SAMPLES_DEFAULT_PARTITION } from '../sample-retention.js';

/** Months created by the migration before the current one, at most (older rows go to the default partition). */
const MAX_PAST_MONTHS = 121;
/** Months created after the current one (the prune job keeps creating them ahead). */
const AHEAD_MONTHS = 2;

/**
 * Issue 16, data retention: on PostgreSQL the raw `samples` table becomes a table partitioned by
 * month on `ts` (declarative range partitions `samples_pYYYYMM`, UTC months, plus
 * `samples_default` for any other time), so that retention drops whole months instead of deleting
 * rows and a query over a time range reads only its months.
 *
 * The existing table is converted with its rows: renamed away, the partitioned table created
 * with the same columns and the same primary key (device_id, ts) — it includes the partition key,
 * so the ingest writer's `on conflict do nothing` keeps working — one partition per month that
 * holds rows (at most MAX_PAST_MONTHS back; older or far-future rows land in the default
 * partition) and the current month plus AHEAD_MONTHS, the rows copied, the old table dropped. All
 * in the migration's transaction. SQLite keeps its plain table (retention deletes in batches).
 */
export function samplePartitions(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      if (d.engine !== 'postgres') return;
      await sql`alter table samples rename to samples_unpartitioned`.execute(db);
      await sql`alter table samples_unpartitioned rename constraint samples_pk to samples_unpartitioned_pk`.execute(db);
      await sql`create table samples (device_id integer not null, ts bigint not null, data bytea not null,
        constraint samples_pk primary key (device_id, ts)) partition by range (ts)`.execute(db);
      await sql`create table ${sql.table(SAMPLES_DEFAULT_PARTITION)} partition of samples default`.execute(db);

      const now = Date.now();
      const oldest = monthStart(now, -MAX_PAST_MONTHS);
      const newest = monthStart(now, AHEAD_MONTHS);
      const months = new Set<number>();
      for (let m = monthStart(now); m <= newest; m = monthStart(m, 1)) months.add(m);
      // The months that hold rows (UTC), within the window.
      const held = await sql<{ m: string | number }>`select distinct
          (extract(epoch from date_trunc('month', to_timestamp(ts / 1000.0) at time zone 'UTC')) * 1000)::bigint as m
        from samples_unpartitioned where ts >= ${oldest} and ts < ${monthStart(newest, 1)}`.execute(db);
      for (const r of held.rows) months.add(Number(r.m));
      for (const from of [...months].sort((a, b) => a - b)) {
        await sql`create table ${sql.table(partitionName(from))} partition of samples
          for values from (${sql.lit(from)}) to (${sql.lit(monthStart(from, 1))})`.execute(db);
      }
      await sql`insert into samples (device_id, ts, data) select device_id, ts, data from samples_unpartitioned`.execute(
        db,
      );
      await sql`drop table samples_unpartitioned`.execute(db);
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
