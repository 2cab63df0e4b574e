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
 * The datalogger log (migration 0011 `datalogger_events`): connections, disconnections, refused
 * sign-ins, heartbeat gaps, commands and their acknowledgements or timeouts. Written by the MQTT
 * broker hooks, the command service and the offline job; never fails its caller (a log write that
 * fails is dropped and reported through `onError`). Inside a transaction the write is durable: it
 * stays when the transaction rolls back.
 */
export class DataloggerEvents {
  private readonly lastAuthFail = new Map<string, number>();

  constructor(
    private readonly deps: {
      db: Db;
      dbh: DbHandle;
      now: () => number;
      onError?: (err: unknown) => void;
    },
  ) {}

  async record(e: DataloggerEvent): Promise<void> {
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
