import type { CollectorEventKind, CollectorLogRow } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
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
 * The datalogger log (migration 0011 `datalogger_events`): registrations, connections,
 * disconnections, refused sign-ins, heartbeat gaps, commands and their acknowledgements or timeouts. Written by the MQTT
 * broker hooks, the command service and the offline job; never fails its caller (a log write that
 * fails is dropped and reported through `onError`). Inside a transaction the write is durable: it
 * stays when the transaction rolls back.
 */
export class DataloggerEvents {
  private readonly lastAuthFail = new Map<string, number>();
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
}
