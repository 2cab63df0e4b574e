import type SQLite from 'better-sqlite3';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { evaluateAlarmRun, type AlarmRunResult, type RunSample } from './alarm-runs.js';

/**
 * The write side of one ingestion batch, in ONE transaction on either engine:
 * samples are inserted first (ON CONFLICT DO NOTHING), then `plan(inserted)` — pure JS — turns
 * the newly inserted ones into rollup / latest / status / alarm writes, which are applied in the
 * same transaction. So a resent sample (not inserted) never touches a rollup, and a batch is
 * either fully visible (samples + latest + rollups) or not at all.
 */

/** The owner of a datalogger's plant now (the alarm's owner at alarm time, 0018); one parameter: the datalogger id. */
const ALARM_OWNER_SQL = '(select p.owner_id from dataloggers x join projects p on p.id = x.project_id where x.id = ?)';

export interface SampleRow {
  deviceId: number;
  ts: number;
  data: Uint8Array;
}

/** A sample to insert; `device.id` is set by the time the store inserts it (see NewDevice). */
export interface SampleInsert {
  device: { id: number };
  ts: number;
  data: Uint8Array;
}

/** A device first heard of in this batch: registered in the batch's transaction, which sets `entry.id`. */
export interface NewDevice {
  key: string;
  entry: { id: number; dataloggerId: number };
  row: {
    datalogger_id: number;
    pn: string;
    devcode: number;
    devaddr: number;
    sn: string;
    devtype: number;
    device_type: number;
    model: string;
    brand: string;
    status: number;
    project_id: number | null;
    created_at: number;
  };
}

export const DAY_KINDS = ['gen', 'chg', 'dis', 'sold', 'bought', 'used'] as const;
export type DayKind = (typeof DAY_KINDS)[number];

export interface DayAgg {
  deviceId: number;
  day: number;
  samples: number;
  min: Record<DayKind, number | null>;
  max: Record<DayKind, number | null>;
  peak: number | null;
  firstTs: number;
  lastTs: number;
}

export interface WritePlan {
  days: DayAgg[];
  latest: SampleRow[];
  /**
   * Per device of the batch: its newest newly inserted sample (`ts`, `status`: applied only when it
   * is also the device's newest in the database, `last_sample_at <= ts`, decided in SQL so it holds
   * across instances) and every newly inserted sample in timestamp order with its active alarms
   * (`run`), whose transitions `evaluateAlarmRun` decides against the stored state.
   */
  devices: Array<{
    id: number;
    dataloggerId: number;
    ts: number;
    status: number;
    run: RunSample[];
    /** Some sample of the run has an active alarm (else only open alarms can close). */
    anyAlarm: boolean;
    /**
     * A firmware version the newest sample (`ts`) reported that differs from the known one: written
     * when `ts` is the device's newest in the database and the stored version differs.
     */
    firmware?: string;
  }>;
  /** Dataloggers heard from: last_seen_at, online, offline alarm closed, devices back from offline. */
  dataloggers: Array<{ id: number; seenAt: number; firmware?: string; signal?: number }>;
  badFrames: Array<{ dataloggerId: number; n: number }>;
}

/** What a committed batch changed beyond its counts. */
export interface CommitStats {
  /** Device rows whose firmware version the batch changed. */
  firmwareUpdated: number;
}

export interface IngestStore {
  /**
   * One transaction: registers `devices` (setting their ids), inserts `rows`, then applies
   * `plan(inserted)`. Rejects (and writes nothing) on any failure.
   */
  commit(
    devices: readonly NewDevice[],
    rows: readonly SampleInsert[],
    plan: (inserted: boolean[]) => WritePlan,
  ): Promise<CommitStats>;
}

const DEVICE_COLS = [
  'datalogger_id',
  'pn',
  'devcode',
  'devaddr',
  'sn',
  'devtype',
  'device_type',
  'model',
  'brand',
  'status',
  'project_id',
  'created_at',
] as const;

function registeredId(dev: NewDevice, row: { id: number; datalogger_id: number } | undefined): number {
  if (!row || Number(row.datalogger_id) !== dev.entry.dataloggerId) {
    throw new Error(`device ${dev.key} could not be registered on datalogger ${dev.entry.dataloggerId}`);
  }
  return Number(row.id);
}

const buf = (u: Uint8Array): Buffer => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** SQLite: prepared statements on the raw better-sqlite3 connection, one synchronous transaction. */
export class SqliteIngestStore implements IngestStore {
  private readonly st;
  constructor(private readonly sqlite: SQLite.Database) {
    const s = (q: string) => sqlite.prepare(q);
    const m = (a: string, b: string) => `min(coalesce(${a}, ${b}), coalesce(${b}, ${a}))`;
    const x = (a: string, b: string) => `max(coalesce(${a}, ${b}), coalesce(${b}, ${a}))`;
    const kindCols = DAY_KINDS.flatMap((k) => [`${k}_min`, `${k}_max`]);
    this.st = {
      sample: s('insert into samples (device_id, ts, data) values (?, ?, ?) on conflict do nothing'),
      day: s(
        `insert into device_days (device_id, day, samples, ${kindCols.join(', ')}, peak_power, first_ts, last_ts)
         values (?, ?, ?, ${kindCols.map(() => '?').join(', ')}, ?, ?, ?)
         on conflict (device_id, day) do update set
           samples = device_days.samples + excluded.samples,
           ${DAY_KINDS.map(
             (k) =>
               `${k}_min = ${m(`device_days.${k}_min`, `excluded.${k}_min`)}, ${k}_max = ${x(`device_days.${k}_max`, `excluded.${k}_max`)}`,
           ).join(',\n')},
           peak_power = ${x('device_days.peak_power', 'excluded.peak_power')},
           first_ts = min(device_days.first_ts, excluded.first_ts),
           last_ts = max(device_days.last_ts, excluded.last_ts)`,
      ),
      latest: s(
        `insert into device_latest (device_id, ts, data) values (?, ?, ?)
         on conflict (device_id) do update set ts = excluded.ts, data = excluded.data where excluded.ts > device_latest.ts`,
      ),
      device: s(
        'update devices set last_sample_at = ?, status = ? where id = ? and (last_sample_at is null or last_sample_at <= ?)',
      ),
      // After `device`: last_sample_at <= ts holds only when ts is the device's newest sample.
      deviceFirmware: s('update devices set firmware = ? where id = ? and firmware <> ? and last_sample_at <= ?'),
      dlSeen: s(
        `update dataloggers set last_seen_at = max(coalesce(last_seen_at, 0), ?), status = 0,
           firmware = coalesce(?, firmware), signal = coalesce(?, signal) where id = ?`,
      ),
      dlOfflineClose: s('update alarms set ended_at = ? where datalogger_id = ? and level = 3 and ended_at is null'),
      dlDevicesBack: s('update devices set status = 0 where datalogger_id = ? and status = 1'),
      deviceState: s(
        `select last_sample_at as last, (select group_concat(code) from alarms a
           where a.device_id = devices.id and a.level < 3 and a.ended_at is null) as open from devices where id = ?`,
      ),
      alarmOpen: s(
        `insert into alarms (datalogger_id, device_id, level, code, description, started_at, handled, owner_id)
         select ?, ?, ?, ?, ?, ?, 0, ${ALARM_OWNER_SQL} where not exists
           (select 1 from alarms where device_id = ? and code = ? and level < 3 and ended_at is null)`,
      ),
      alarmClose: s('update alarms set ended_at = ? where device_id = ? and code = ? and level < 3 and ended_at is null'),
      alarmEpisode: s(
        `insert into alarms (datalogger_id, device_id, level, code, description, started_at, ended_at, handled, owner_id)
         values (?, ?, ?, ?, ?, ?, ?, 0, ${ALARM_OWNER_SQL})`,
      ),
      bad: s('update dataloggers set bad_frames = bad_frames + ? where id = ?'),
      deviceInsert: s(
        `insert into devices (${DEVICE_COLS.join(', ')}, alias, firmware, load, last_sample_at)
         values (${DEVICE_COLS.map(() => '?').join(', ')}, '', '', 0, null)
         on conflict (pn, devcode, devaddr, sn) do nothing`,
      ),
      deviceId: s('select id, datalogger_id from devices where pn = ? and devcode = ? and devaddr = ? and sn = ?'),
    };
  }

  async commit(
    devices: readonly NewDevice[],
    rows: readonly SampleInsert[],
    plan: (inserted: boolean[]) => WritePlan,
  ): Promise<CommitStats> {
    // Never join a transaction Kysely has open on the same connection (it awaits between statements).
    while (this.sqlite.inTransaction) await sleep(1);
    const st = this.st;
    const stats: CommitStats = { firmwareUpdated: 0 };
    const tx = this.sqlite.transaction(() => {
      for (const d of devices) {
        st.deviceInsert.run(...DEVICE_COLS.map((c) => d.row[c]));
        const r = st.deviceId.get(d.row.pn, d.row.devcode, d.row.devaddr, d.row.sn) as
          | { id: number; datalogger_id: number }
          | undefined;
        d.entry.id = registeredId(d, r);
      }
      const inserted = rows.map((r) => st.sample.run(r.device.id, r.ts, buf(r.data)).changes === 1);
      const p = plan(inserted);
      for (const d of p.dataloggers) {
        st.dlSeen.run(d.seenAt, d.firmware ?? null, d.signal ?? null, d.id);
        st.dlOfflineClose.run(d.seenAt, d.id);
        st.dlDevicesBack.run(d.id);
      }
      for (const b of p.badFrames) st.bad.run(b.n, b.dataloggerId);
      for (const d of p.days) {
        const args: Array<number | null> = [d.deviceId, d.day, d.samples];
        for (const k of DAY_KINDS) args.push(d.min[k], d.max[k]);
        args.push(d.peak, d.firstTs, d.lastTs);
        st.day.run(...args);
      }
      for (const l of p.latest) st.latest.run(l.deviceId, l.ts, buf(l.data));
      for (const d of p.devices) {
        const cur = st.deviceState.get(d.id) as { last: number | null; open: string | null } | undefined;
        if (!cur) continue;
        const open = openCodes(cur.open);
        if (d.anyAlarm || open.size > 0) {
          const r = evaluateAlarmRun(d.run, cur.last === null ? null : Number(cur.last), open);
          for (const t of r.transitions) {
            if (t.open) {
              const a = t.open;
              st.alarmOpen.run(d.dataloggerId, d.id, a.level, a.code, a.description.slice(0, 512), t.ts, d.dataloggerId, d.id, a.code);
            } else st.alarmClose.run(t.ts, d.id, t.code);
          }
          for (const e of r.episodes) {
            st.alarmEpisode.run(d.dataloggerId, d.id, e.level, e.code, e.description.slice(0, 512), e.start, e.end, d.dataloggerId);
          }
        }
        st.device.run(d.ts, d.status, d.id, d.ts); // only when it is the newest: status
        if (d.firmware !== undefined) {
          stats.firmwareUpdated += st.deviceFirmware.run(d.firmware, d.id, d.firmware, d.ts).changes;
        }
      }
    });
    tx.immediate();
    return stats;
  }
}

/** PostgreSQL: multi-row statements in one Kysely transaction. */
export class PgIngestStore implements IngestStore {
  constructor(private readonly db: Kysely<Database>) {}

  async commit(
    devices: readonly NewDevice[],
    rows: readonly SampleInsert[],
    plan: (inserted: boolean[]) => WritePlan,
  ): Promise<CommitStats> {
    const stats: CommitStats = { firmwareUpdated: 0 };
    // Several instances write batches of the same dataloggers at once (MQTT shared subscriptions
    // hand each frame to any instance): every phase below takes its row locks in one global order
    // (new devices by natural key, samples by key, dataloggers by id, devices by datalogger and id),
    // so two batches wait for each other instead of deadlocking (a deadlock aborts a batch: no
    // loss, the broker redelivers, but a round of errors).
    const toRegister = [...devices].sort((a, b) => cmpKey(a.row, b.row));
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < toRegister.length; i += 200) {
        const chunk = toRegister.slice(i, i + 200);
        await trx
          .insertInto('devices')
          .values(chunk.map((d) => ({ ...d.row, alias: '', firmware: '', load: 0, last_sample_at: null })))
          .onConflict((oc) => oc.columns(['pn', 'devcode', 'devaddr', 'sn']).doNothing())
          .execute();
        const found = await trx
          .selectFrom('devices')
          .select(['id', 'datalogger_id', 'pn', 'devcode', 'devaddr', 'sn'])
          .where((eb) =>
            eb.or(
              chunk.map((d) =>
                eb.and([
                  eb('pn', '=', d.row.pn),
                  eb('devcode', '=', d.row.devcode),
                  eb('devaddr', '=', d.row.devaddr),
                  eb('sn', '=', d.row.sn),
                ]),
              ),
            ),
          )
          .execute();
        const byKey = new Map(found.map((r) => [`${r.pn}|${r.devcode}|${r.devaddr}|${r.sn}`, r]));
        for (const d of chunk) {
          d.entry.id = registeredId(d, byKey.get(`${d.row.pn}|${d.row.devcode}|${d.row.devaddr}|${d.row.sn}`));
        }
      }
      const inserted = await insertSamples(trx, rows);
      const p = plan(inserted);
      if (p.dataloggers.length > 0) {
        // Three statements for all dataloggers of the batch (arrays through unnest), not three per
        // datalogger: the round trips were most of a PostgreSQL batch (bench/README.md, session 30).
        // Their rows are locked first in id order, as the devices below, so two instances never deadlock.
        const dls = [...p.dataloggers].sort((a, b) => a.id - b.id);
        const ids = dls.map((d) => d.id);
        const seen = dls.map((d) => d.seenAt);
        await sql`select id from dataloggers where id = any(${ids}::integer[]) order by id for update`.execute(trx);
        await sql`update dataloggers x set last_seen_at = greatest(coalesce(x.last_seen_at, 0), v.seen), status = 0,
            firmware = coalesce(v.fw, x.firmware), signal = coalesce(v.sig, x.signal)
          from unnest(${ids}::integer[], ${seen}::bigint[], ${dls.map((d) => d.firmware ?? null)}::text[],
            ${dls.map((d) => d.signal ?? null)}::integer[]) as v(id, seen, fw, sig)
          where x.id = v.id`.execute(trx);
        await sql`update alarms a set ended_at = v.seen
          from unnest(${ids}::integer[], ${seen}::bigint[]) as v(id, seen)
          where a.datalogger_id = v.id and a.level = 3 and a.ended_at is null`.execute(trx);
        await sql`update devices set status = 0
          where datalogger_id = any(${ids}::integer[]) and status = 1`.execute(trx);
      }
      for (const b of [...p.badFrames].sort((x, y) => x.dataloggerId - y.dataloggerId)) {
        await sql`update dataloggers set bad_frames = bad_frames + ${b.n} where id = ${b.dataloggerId}`.execute(trx);
      }
      const days = [...p.days].sort((a, b) => a.deviceId - b.deviceId || a.day - b.day);
      for (let i = 0; i < days.length; i += 500) {
        const chunk = days.slice(i, i + 500);
        const cols = DAY_KINDS.flatMap((k) => [`${k}_min`, `${k}_max`]);
        await sql`insert into device_days (device_id, day, samples, ${sql.join(cols.map((c) => sql.ref(c)))}, peak_power, first_ts, last_ts)
          values ${sql.join(
            chunk.map(
              (d) =>
                sql`(${d.deviceId}, ${d.day}, ${d.samples}, ${sql.join(
                  DAY_KINDS.flatMap((k) => [sql`${d.min[k]}::double precision`, sql`${d.max[k]}::double precision`]),
                )}, ${d.peak}::double precision, ${d.firstTs}::bigint, ${d.lastTs}::bigint)`,
            ),
          )}
          on conflict (device_id, day) do update set
            samples = device_days.samples + excluded.samples,
            ${sql.join(
              DAY_KINDS.map(
                (k) =>
                  sql`${sql.ref(`${k}_min`)} = least(${sql.ref(`device_days.${k}_min`)}, ${sql.ref(`excluded.${k}_min`)}),
                      ${sql.ref(`${k}_max`)} = greatest(${sql.ref(`device_days.${k}_max`)}, ${sql.ref(`excluded.${k}_max`)})`,
              ),
            )},
            peak_power = greatest(device_days.peak_power, excluded.peak_power),
            first_ts = least(device_days.first_ts, excluded.first_ts),
            last_ts = greatest(device_days.last_ts, excluded.last_ts)`.execute(trx);
      }
      const latest = [...p.latest].sort((a, b) => a.deviceId - b.deviceId);
      for (let i = 0; i < latest.length; i += 1000) {
        await sql`insert into device_latest (device_id, ts, data)
          values ${sql.join(latest.slice(i, i + 1000).map((l) => sql`(${l.deviceId}, ${l.ts}::bigint, ${buf(l.data)})`))}
          on conflict (device_id) do update set ts = excluded.ts, data = excluded.data where excluded.ts > device_latest.ts`.execute(
          trx,
        );
      }
      // Datalogger first: the alarm-count trigger (0018) locks one counter row per datalogger, so
      // devices, alarms and counters are all locked in one order across concurrent batches.
      const devs = [...p.devices].sort((a, b) => a.dataloggerId - b.dataloggerId || a.id - b.id);
      const state = new Map<number, { last: number | null; open: Set<number> }>();
      for (let i = 0; i < devs.length; i += 1000) {
        const ids = devs.slice(i, i + 1000).map((d) => sql`${d.id}`);
        const res = await sql<{ id: number; last: number | string | null; open: string | null }>`
          select d.id, d.last_sample_at as last, (select string_agg(a.code::text, ',') from alarms a
            where a.device_id = d.id and a.level < 3 and a.ended_at is null) as open
          from devices d where d.id in (${sql.join(ids)}) order by d.datalogger_id, d.id for update of d`.execute(trx);
        for (const r of res.rows) {
          state.set(Number(r.id), { last: r.last === null ? null : Number(r.last), open: openCodes(r.open) });
        }
      }
      for (const d of devs) {
        const cur = state.get(d.id);
        if (!cur) continue;
        let r: AlarmRunResult | undefined;
        if (d.anyAlarm || cur.open.size > 0) r = evaluateAlarmRun(d.run, cur.last, cur.open);
        for (const t of r?.transitions ?? []) {
          if (t.open) {
            const a = t.open;
            await sql`insert into alarms (datalogger_id, device_id, level, code, description, started_at, handled, owner_id)
              select ${d.dataloggerId}, ${d.id}, ${a.level}, ${a.code}, ${a.description.slice(0, 512)}, ${t.ts}::bigint, 0,
                (select p.owner_id from dataloggers x join projects p on p.id = x.project_id where x.id = ${d.dataloggerId})
              where not exists (select 1 from alarms where device_id = ${d.id} and code = ${a.code} and level < 3 and ended_at is null)`.execute(
              trx,
            );
          } else {
            await sql`update alarms set ended_at = ${t.ts}
              where device_id = ${d.id} and code = ${t.code} and level < 3 and ended_at is null`.execute(trx);
          }
        }
        for (const e of r?.episodes ?? []) {
          await sql`insert into alarms (datalogger_id, device_id, level, code, description, started_at, ended_at, handled, owner_id)
            values (${d.dataloggerId}, ${d.id}, ${e.level}, ${e.code}, ${e.description.slice(0, 512)}, ${e.start}::bigint,
              ${e.end}::bigint, 0,
              (select p.owner_id from dataloggers x join projects p on p.id = x.project_id where x.id = ${d.dataloggerId}))`.execute(trx);
        }
      }
      // Newest sample and status of every device of the batch in one statement (rows locked above),
      // only where ts is the device's newest; after its alarm transitions, as before.
      for (let i = 0; i < devs.length; i += 1000) {
        const chunk = devs.slice(i, i + 1000);
        await sql`update devices x set last_sample_at = v.ts, status = v.st
          from unnest(${chunk.map((d) => d.id)}::integer[], ${chunk.map((d) => d.ts)}::bigint[],
            ${chunk.map((d) => d.status)}::integer[]) as v(id, ts, st)
          where x.id = v.id and (x.last_sample_at is null or x.last_sample_at <= v.ts)`.execute(trx);
      }
      for (const d of devs) {
        if (d.firmware === undefined) continue;
        // After the update above: last_sample_at <= ts holds only when ts is the device's newest sample.
        const r = await sql`update devices set firmware = ${d.firmware}
          where id = ${d.id} and firmware <> ${d.firmware} and last_sample_at <= ${d.ts}`.execute(trx);
        stats.firmwareUpdated += Number(r.numAffectedRows ?? 0);
      }
    });
    return stats;
  }
}

/** The natural key order of device rows (the lock order of concurrent registrations). */
function cmpKey(
  a: { pn: string; devcode: number; devaddr: number; sn: string },
  b: { pn: string; devcode: number; devaddr: number; sn: string },
): number {
  return a.pn < b.pn ? -1 : a.pn > b.pn ? 1 : a.devcode - b.devcode || a.devaddr - b.devaddr || (a.sn < b.sn ? -1 : a.sn > b.sn ? 1 : 0);
}

function openCodes(csv: string | null): Set<number> {
  return csv ? new Set(csv.split(',').map(Number)) : new Set();
}

async function insertSamples(trx: Transaction<Database>, rows: readonly SampleInsert[]): Promise<boolean[]> {
  const inserted = new Set<string>();
  // Key order: a resent frame another instance is inserting right now waits without a deadlock.
  const sorted = [...rows].sort((a, b) => a.device.id - b.device.id || a.ts - b.ts);
  for (let i = 0; i < sorted.length; i += 1000) {
    const chunk = sorted.slice(i, i + 1000);
    const res = await sql<{ device_id: number; ts: number | string }>`insert into samples (device_id, ts, data)
      values ${sql.join(chunk.map((r) => sql`(${r.device.id}, ${r.ts}::bigint, ${buf(r.data)})`))}
      on conflict do nothing returning device_id, ts`.execute(trx);
    for (const r of res.rows) inserted.add(`${r.device_id}|${Number(r.ts)}`);
  }
  return rows.map((r) => inserted.has(`${r.device.id}|${r.ts}`));
}
