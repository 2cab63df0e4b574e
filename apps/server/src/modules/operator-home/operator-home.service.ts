import { sql } from 'kysely';
import {
  DEVICE_STATUS,
  FIRMWARE_UPGRADE_STATUS,
  ROLE,
  type OperatorHomeActionHour,
  type OperatorHomeDat,
  type OperatorHomeIngestHour,
  type OperatorHomeJob,
  type OperatorHomeSlowAction,
} from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import type { Engine } from '../../db/dialect.js';
import type { Clock } from '../../shared/clock.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The minute an instance is still flushing (it writes a second after the boundary): read the one before. */
const FLUSH_GRACE_MS = 5_000;
const RECENT_ACTIONS_MS = 5 * MINUTE;
const SLOWEST = 10;
/** mail_queue states (notifications/mail-queue.repository.ts). */
const MAIL_PENDING = ['queued', 'outbox', 'claimed', 'sending'];
const MAIL_FAILED = ['failed', 'unconfirmed'];
/** Export-file status 0: being built (protocol EXPORT_STATUS.EXPORTING). */
const EXPORTING = 0;

const num = (v: unknown): number => Number(v ?? 0) || 0;
const round = (v: number, digits = 2): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** 24 hour buckets ending with the current hour, oldest first. */
function hourStarts(now: number): number[] {
  const current = now - (now % HOUR);
  return Array.from({ length: 24 }, (_, i) => current - (23 - i) * HOUR);
}

/**
 * The operator home (issue 14): platform-wide counts and rates, read straight from the tables of
 * the other modules (no scoping: the dispatcher lets only role 15 in). Every figure is one
 * aggregate query; the heaviest is the p99 per action over the 24 h of `action_log` (window
 * functions, portable to SQLite ≥ 3.25 and PostgreSQL).
 */
export class OperatorHomeService {
  constructor(
    private readonly db: Db,
    private readonly now: Clock,
    private readonly engine: Engine,
  ) {}

  async home(): Promise<OperatorHomeDat> {
    const at = this.now();
    const [accounts, plants, dataloggers, devices, ingest, actions, slowest, storage, queues] = await Promise.all([
      this.accounts(),
      this.plants(),
      this.dataloggers(),
      this.devices(),
      this.ingest(at),
      this.actions(at),
      this.slowest(at),
      this.storage(),
      this.queues(),
    ]);
    return {
      at,
      accounts,
      plants,
      dataloggers,
      devices,
      ingest,
      actions: { ...actions, slowest },
      storage,
      queues,
    };
  }

  private async accounts(): Promise<OperatorHomeDat['accounts']> {
    const rows = await this.db
      .selectFrom('accounts')
      .select((eb) => ['role', eb.fn.countAll<number | string>().as('n')])
      .where('role', 'in', [ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OWNER])
      .groupBy('role')
      .execute();
    const by = new Map(rows.map((r) => [Number(r.role), num(r.n)]));
    return {
      manufacturers: by.get(ROLE.MANUFACTURER) ?? 0,
      distributors: by.get(ROLE.DISTRIBUTOR) ?? 0,
      owners: by.get(ROLE.OWNER) ?? 0,
    };
  }

  private async plants(): Promise<number> {
    const r = await this.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    return num(r?.n);
  }

  private async dataloggers(): Promise<OperatorHomeDat['dataloggers']> {
    const rows = await this.db
      .selectFrom('dataloggers')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    let total = 0;
    let online = 0;
    for (const r of rows) {
      total += num(r.n);
      if (Number(r.status) === 0) online += num(r.n);
    }
    return { total, online, offline: total - online };
  }

  private async devices(): Promise<OperatorHomeDat['devices']> {
    const rows = await this.db
      .selectFrom('devices')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    const byStatus = Object.values(DEVICE_STATUS).map(() => 0);
    let total = 0;
    for (const r of rows) {
      const s = Number(r.status);
      total += num(r.n);
      if (s >= 0 && s < byStatus.length) byStatus[s]! += num(r.n);
    }
    return { total, byStatus };
  }

  private async ingest(at: number): Promise<OperatorHomeDat['ingest']> {
    const last = at - FLUSH_GRACE_MS - ((at - FLUSH_GRACE_MS) % MINUTE) - MINUTE;
    const starts = hourStarts(at);
    const from = starts[0]!;
    const [lastMinute, hours, recent] = await Promise.all([
      this.db
        .selectFrom('ingest_minutes')
        .select((eb) => [eb.fn.sum<number | string>('frames').as('f'), eb.fn.sum<number | string>('points').as('p')])
        .where('minute', '=', last)
        .executeTakeFirst(),
      this.db
        .selectFrom('ingest_minutes')
        .select((eb) => [
          sql<number | string>`(minute / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`.as('h'),
          eb.fn.sum<number | string>('frames').as('f'),
          eb.fn.sum<number | string>('points').as('p'),
        ])
        .where('minute', '>=', from)
        .groupBy(sql`(minute / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`)
        .execute(),
      this.db
        .selectFrom('ingest_minutes')
        .select((eb) => eb.fn.count<number | string>('instance_id').distinct().as('n'))
        .where('minute', '>=', at - 10 * MINUTE)
        .executeTakeFirst(),
    ]);
    const byHour = new Map(hours.map((h) => [num(h.h), h]));
    const series: OperatorHomeIngestHour[] = starts.map((start) => {
      const h = byHour.get(start);
      return { start, frames: num(h?.f), points: num(h?.p) };
    });
    // The 24 h window is the 24 hour buckets (the current hour counts so far).
    const frames24h = series.reduce((a, h) => a + h.frames, 0);
    const points24h = series.reduce((a, h) => a + h.points, 0);
    const seconds24h = Math.max(1, (at - from) / 1000);
    return {
      framesPerSec: round(num(lastMinute?.f) / 60),
      pointsPerSec: round(num(lastMinute?.p) / 60),
      frames24h,
      points24h,
      framesPerSec24h: round(frames24h / seconds24h),
      pointsPerSec24h: round(points24h / seconds24h),
      instances: num(recent?.n),
      hours: series,
    };
  }

  private async actions(at: number): Promise<Omit<OperatorHomeDat['actions'], 'slowest'>> {
    const starts = hourStarts(at);
    const from = starts[0]!;
    const [hours, recent] = await Promise.all([
      this.db
        .selectFrom('action_log')
        .select([
          sql<number | string>`(ts / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`.as('h'),
          sql<number | string>`count(*)`.as('calls'),
          sql<number | string>`sum(case when err <> 0 then 1 else 0 end)`.as('errors'),
        ])
        .where('ts', '>=', from)
        .where('ts', '<=', at)
        .groupBy(sql`(ts / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}`)
        .execute(),
      this.db
        .selectFrom('action_log')
        .select([
          sql<number | string>`count(*)`.as('calls'),
          sql<number | string>`sum(case when err <> 0 then 1 else 0 end)`.as('errors'),
        ])
        .where('ts', '>', at - RECENT_ACTIONS_MS)
        .where('ts', '<=', at)
        .executeTakeFirst(),
    ]);
    const byHour = new Map(hours.map((h) => [num(h.h), h]));
    const series: OperatorHomeActionHour[] = starts.map((start) => {
      const h = byHour.get(start);
      return { start, calls: num(h?.calls), errors: num(h?.errors) };
    });
    const calls24h = series.reduce((a, h) => a + h.calls, 0);
    const errors24h = series.reduce((a, h) => a + h.errors, 0);
    const recentCalls = num(recent?.calls);
    return {
      callsPerMin: round(recentCalls / (RECENT_ACTIONS_MS / MINUTE)),
      errorRate: recentCalls === 0 ? 0 : round(num(recent?.errors) / recentCalls, 4),
      calls24h,
      errors24h,
      errorRate24h: calls24h === 0 ? 0 : round(errors24h / calls24h, 4),
      hours: series,
    };
  }

  /** p99 by nearest rank: the ⌈0.99·n⌉-th smallest duration, (99n + 99) div 100 in integers. */
  private async slowest(at: number): Promise<OperatorHomeSlowAction[]> {
    const r = await sql<{
      action: string;
      n: number | string;
      p99: number | string;
      mx: number | string;
      av: number | string;
    }>`
      select action, n, duration_ms as p99, mx, av from (
        select action, duration_ms,
          row_number() over (partition by action order by duration_ms) as rn,
          count(*) over (partition by action) as n,
          max(duration_ms) over (partition by action) as mx,
          avg(duration_ms) over (partition by action) as av
        from action_log
        where ts > ${at - DAY} and ts <= ${at}
      ) x
      where rn = (99 * n + 99) / 100
      order by duration_ms desc, n desc, action
      limit ${SLOWEST}`.execute(this.db);
    return r.rows.map((x) => ({
      action: x.action,
      calls: num(x.n),
      p99Ms: num(x.p99),
      maxMs: num(x.mx),
      avgMs: round(num(x.av), 1),
    }));
  }

  private async storage(): Promise<OperatorHomeDat['storage']> {
    if (this.engine === 'sqlite') {
      const r = await sql<{
        bytes: number | string;
      }>`select p.page_count * s.page_size as bytes from pragma_page_count() p, pragma_page_size() s`.execute(this.db);
      return { engine: 'sqlite', bytes: num(r.rows[0]?.bytes) };
    }
    const r = await sql<{ bytes: number | string }>`select pg_database_size(current_database()) as bytes`.execute(
      this.db,
    );
    return { engine: 'postgres', bytes: num(r.rows[0]?.bytes) };
  }

  private async queues(): Promise<OperatorHomeDat['queues']> {
    const [mail, exporting, upgrades, jobs] = await Promise.all([
      this.db
        .selectFrom('mail_queue')
        .select((eb) => ['state', eb.fn.countAll<number | string>().as('n')])
        .where('state', 'in', [...MAIL_PENDING, ...MAIL_FAILED])
        .groupBy('state')
        .execute(),
      this.db
        .selectFrom('export_files')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', EXPORTING)
        .executeTakeFirst(),
      this.db
        .selectFrom('upgrade_tasks')
        .select([
          sql<number | string>`sum(case when phase = 'waiting' then 1 else 0 end)`.as('waiting'),
          sql<number | string>`sum(case when phase <> 'waiting' then 1 else 0 end)`.as('running'),
        ])
        .where('status', '=', FIRMWARE_UPGRADE_STATUS.running)
        .executeTakeFirst(),
      this.db.selectFrom('jobs').select(['name', 'last_run_at', 'last_error', 'lease_until']).orderBy('name').execute(),
    ]);
    let mailPending = 0;
    let mailFailed = 0;
    for (const m of mail) {
      if (MAIL_PENDING.includes(m.state)) mailPending += num(m.n);
      else mailFailed += num(m.n);
    }
    return {
      mailPending,
      mailFailed,
      exporting: num(exporting?.n),
      upgradesWaiting: num(upgrades?.waiting),
      upgradesRunning: num(upgrades?.running),
      jobs: jobs.map((j): OperatorHomeJob => ({
        name: j.name,
        lastRunAt: j.last_run_at === null ? null : Number(j.last_run_at),
        lastError: j.last_error,
        leaseUntil: Number(j.lease_until),
      })),
    };
  }
}
