import type { CollectorEventKind, CollectorLogResult, CollectorLogRow, OperatorCollectorLogRow } from '@sunwatch/protocol';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { deleteOlderInBatches, type PruneOptions } from '../../db/prune.js';
import type { DbHandle } from '../../db/transaction.js';

/** One entry of the datalogger log. */
export interface DataloggerEvent {
  pn: string;
  kind: CollectorEventKind;
  /** Command kind (reboot, reset, debug, ctrl, …) for command / ack / timeout. */
  cmd?: string;
  /** 0 fine; else an err code. */
  result?: number;
  usr?: string;
  detail?: string;
  /** Epoch ms (default: now). */
  ts?: number;
}

/** A refused sign-in of one PN is logged at most once per this window (a retry loop must not flood the log). */
export const AUTH_FAIL_WINDOW_MS = 60_000;

/**
 * Refused sign-ins of user names that are no datalogger (`unknown_pn`): at most this many per
 * AUTH_FAIL_WINDOW_MS across all such names, so that a scan of random names cannot flood the log.
 */
export const UNKNOWN_PN_FAILS_PER_WINDOW = 30;

/** The platform-wide filter of the datalogger log (the operator's `log` page, issue 14). */
export interface PlatformEventFilter {
  /** Upper-cased; contained in the PN, or equal to it with `exact`. */
  pn?: string | undefined;
  exact?: boolean | undefined;
  from: number;
  to: number;
  kinds?: readonly CollectorEventKind[] | undefined;
  result?: CollectorLogResult | undefined;
}

/**
 * The datalogger log (migration 0011 `datalogger_events`): registrations, connections,
 * disconnections, refused sign-ins, heartbeat gaps, commands and their acknowledgements or timeouts. Written by the MQTT
 * broker hooks, the command service and the offline job; never fails its caller (a log write that
 * fails is dropped and reported through `onError`). Inside a transaction the write is durable: it
 * stays when the transaction rolls back.
 */
export class DataloggerEvents {
  private readonly lastAuthFail = new Map<string, number>();
  /** Start of the current unknown-PN window and the refusals logged in it. */
  private unknownPnWindow = { start: 0, n: 0 };
  /** The connection of each PN being logged (see `connected`). */
  private readonly connecting = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      dbh: DbHandle;
      now: () => number;
      onError?: (err: unknown) => void;
    },
  ) {}

  async record(e: DataloggerEvent): Promise<void> {
    if (e.kind === 'connect') return this.connected(e);
    return this.write(e);
  }

  /**
   * A connection: logged as `connect`, preceded by `register` when it is the datalogger's
   * registration — its first connection since it was added (nothing heard from it yet and no
   * registration logged since its row was created), or its first since an acknowledged reset
   * (no registration logged after the reset's acknowledgement). Connections of one PN are
   * handled one after the other, so that two at once register it once.
   */
  private connected(e: DataloggerEvent): Promise<void> {
    const prev = this.connecting.get(e.pn) ?? Promise.resolve();
    const next = prev.then(async () => {
      const ts = e.ts ?? this.deps.now();
      let due = false;
      try {
        due = await this.registrationDue(e.pn);
      } catch (err) {
        this.deps.onError?.(err);
      }
      if (due) await this.write({ ...e, kind: 'register', ts });
      await this.write({ ...e, ts });
    });
    this.connecting.set(e.pn, next);
    void next.then(() => {
      if (this.connecting.get(e.pn) === next) this.connecting.delete(e.pn);
    });
    return next;
  }

  /** Whether the next connection of `pn` is its registration (see `connected`). */
  async registrationDue(pn: string): Promise<boolean> {
    const db = this.deps.db;
    const dl = await db
      .selectFrom('dataloggers')
      .select(['created_at', 'last_seen_at'])
      .where('pn', '=', pn)
      .executeTakeFirst();
    if (!dl) return false;
    const newest = (where: 'register' | 'reset') => {
      let q = db.selectFrom('datalogger_events').where('pn', '=', pn);
      q =
        where === 'register'
          ? q.where('kind', '=', 'register')
          : q.where('kind', '=', 'ack').where('cmd', '=', 'reset').where('result', '=', 0);
      return q.select((eb) => eb.fn.max('ts').as('ts')).executeTakeFirst();
    };
    const reg = await newest('register');
    const reset = await newest('reset');
    const registered = reg?.ts != null ? Number(reg.ts) : undefined;
    const resetAt = reset?.ts != null ? Number(reset.ts) : undefined;
    if (resetAt !== undefined && (registered === undefined || registered < resetAt)) return true;
    return dl.last_seen_at == null && (registered === undefined || registered < Number(dl.created_at));
  }

  private async write(e: DataloggerEvent): Promise<void> {
    const ts = e.ts ?? this.deps.now();
    if (e.kind === 'auth_fail') {
      const last = this.lastAuthFail.get(e.pn);
      if (last !== undefined && ts - last < AUTH_FAIL_WINDOW_MS) return;
      if (e.detail?.startsWith('unknown_pn')) {
        const w = this.unknownPnWindow;
        if (ts - w.start >= AUTH_FAIL_WINDOW_MS) this.unknownPnWindow = { start: ts, n: 0 };
        if (this.unknownPnWindow.n >= UNKNOWN_PN_FAILS_PER_WINDOW) return;
        this.unknownPnWindow.n += 1;
      }
      this.lastAuthFail.set(e.pn, ts);
      if (this.lastAuthFail.size > 10_000) this.lastAuthFail.clear();
    }
    const row = {
      ts,
      pn: e.pn,
      kind: e.kind,
      cmd: e.cmd ?? '',
      result: e.result ?? 0,
      usr: (e.usr ?? '').slice(0, 64),
      detail: (e.detail ?? '').slice(0, 500),
    };
    const write = async () => {
      try {
        await this.deps.db.insertInto('datalogger_events').values(row).execute();
      } catch (err) {
        this.deps.onError?.(err);
      }
    };
    if (this.deps.dbh.inTransaction) await this.deps.dbh.durable(write);
    else await write();
  }

  /** Fire and forget (broker hooks): the write runs in the background. */
  note(e: DataloggerEvent): void {
    void this.record(e);
  }

  /** Events of one PN in [from, to), newest first, paged; `kind` filters. */
  async list(
    pn: string,
    from: number,
    to: number,
    kind: CollectorEventKind | undefined,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: Array<Omit<CollectorLogRow, 'gts'>> }> {
    let q = this.deps.db
      .selectFrom('datalogger_events')
      .where('pn', '=', pn)
      .where('ts', '>=', from)
      .where('ts', '<', to);
    if (kind) q = q.where('kind', '=', kind);
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await q
      .select(['id', 'ts', 'kind', 'cmd', 'result', 'usr', 'detail'])
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return {
      total,
      rows: rows.map((r) => ({
        id: Number(r.id),
        ts: Number(r.ts),
        kind: r.kind as CollectorEventKind,
        cmd: r.cmd,
        result: Number(r.result),
        usr: r.usr,
        detail: r.detail,
      })),
    };
  }

  /**
   * Events of every PN in [from, to), newest first, paged (the operator's `log` page, issue 14):
   * `pn` contained in the PN (or equal with `exact`), `kinds` and `result` (ok = 0, failed ≠ 0) filter.
   */
  async listPlatform(
    f: PlatformEventFilter,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: OperatorCollectorLogRow[] }> {
    let q = this.deps.db.selectFrom('datalogger_events').where('ts', '>=', f.from).where('ts', '<', f.to);
    const pn = f.pn?.trim().toUpperCase();
    if (pn) {
      q = f.exact
        ? q.where('pn', '=', pn)
        : q.where(sql<SqlBool>`upper(pn) like ${likePattern(pn).toUpperCase()} escape '\\'`);
    }
    if (f.kinds && f.kinds.length > 0) q = q.where('kind', 'in', [...f.kinds]);
    if (f.result === 'ok') q = q.where('result', '=', 0);
    else if (f.result === 'failed') q = q.where('result', '<>', 0);
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await q
      .select(['id', 'ts', 'pn', 'kind', 'cmd', 'result', 'usr', 'detail'])
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return {
      total,
      rows: rows.map((r) => ({
        id: Number(r.id),
        ts: Number(r.ts),
        pn: r.pn,
        kind: r.kind as CollectorEventKind,
        cmd: r.cmd,
        result: Number(r.result),
        usr: r.usr,
        detail: r.detail,
      })),
    };
  }

  /** Deletes the events older than `before` (epoch ms) in batches (the retention job); returns the rows removed. */
  prune(before: number, opts?: PruneOptions): Promise<number> {
    return deleteOlderInBatches(this.deps.db, 'datalogger_events', before, opts);
  }
}
