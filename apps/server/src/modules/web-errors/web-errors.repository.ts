import type {
  WebBreadcrumb,
  WebErrorEventDetail,
  WebErrorEventRow,
  WebErrorGroupRow,
  WebEventKind,
  WebEventSource,
} from '@sunwatch/protocol';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import { deleteOlderInBatches, type PruneOptions } from '../../db/prune.js';
import type { WebEventsTable } from '../../db/schema-web-events.js';
import { currentDb } from '../../db/transaction.js';

/** The operator's filters (time range on the last occurrence, `to` excluded). */
export interface WebEventFilter {
  kind?: WebEventKind | undefined;
  from?: number | undefined;
  to?: number | undefined;
  release?: string | undefined;
}

export type NewWebEvent = Omit<Insertable<WebEventsTable>, 'id'>;

function rowOf(r: Selectable<WebEventsTable>): WebErrorEventRow {
  return {
    id: Number(r.id),
    fingerprint: r.fingerprint,
    kind: r.kind as WebEventKind,
    source: r.source as WebEventSource,
    message: r.message,
    url: r.url,
    route: r.route,
    release: r.release,
    userAgent: r.user_agent,
    accountId: r.account_id == null ? null : Number(r.account_id),
    usr: r.usr,
    tenantId: r.tenant_id == null ? null : Number(r.tenant_id),
    durationMs: r.duration_ms == null ? null : Number(r.duration_ms),
    count: Number(r.count),
    firstSeen: Number(r.first_seen),
    lastSeen: Number(r.ts),
  };
}

function crumbsOf(text: string): WebBreadcrumb[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? (v as WebBreadcrumb[]) : [];
  } catch {
    return [];
  }
}

/** SQL of the web_events table (issue 16, web error reporting). */
export class WebEventsRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /** The latest row of a fingerprint in one tab session (repeats fold into it). */
  async findFold(fingerprint: string, sid: string): Promise<{ id: number } | undefined> {
    const r = await this.db
      .selectFrom('web_events')
      .select('id')
      .where('fingerprint', '=', fingerprint)
      .where('sid', '=', sid)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? { id: Number(r.id) } : undefined;
  }

  async insert(row: NewWebEvent): Promise<void> {
    await this.db.insertInto('web_events').values(row).execute();
  }

  /** One more occurrence: count + 1, last seen, the latest address, release and trace duration. */
  async fold(
    id: number,
    at: number,
    latest: { url: string; release: string; durationMs: number | null },
  ): Promise<void> {
    await this.db
      .updateTable('web_events')
      .set({
        count: sql<number>`count + 1`,
        ts: at,
        url: latest.url,
        release: latest.release,
        ...(latest.durationMs === null ? {} : { duration_ms: latest.durationMs }),
      })
      .where('id', '=', id)
      .execute();
  }

  private filtered(f: WebEventFilter) {
    let q = this.db.selectFrom('web_events');
    if (f.kind) q = q.where('kind', '=', f.kind);
    if (f.from !== undefined) q = q.where('ts', '>=', f.from);
    if (f.to !== undefined) q = q.where('ts', '<', f.to);
    if (f.release) q = q.where('release', '=', f.release);
    return q;
  }

  /** Groups (by fingerprint) of the events matching `f`, latest first. */
  async groups(
    f: WebEventFilter,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: WebErrorGroupRow[] }> {
    const c = await this.filtered(f)
      .select(sql<number>`count(distinct fingerprint)`.as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const groups = await this.filtered(f)
      .select([
        'fingerprint',
        sql<number>`sum(count)`.as('n'),
        sql<number>`count(distinct sid)`.as('sessions'),
        sql<number>`count(distinct account_id)`.as('accounts'),
        sql<number>`min(first_seen)`.as('first_seen'),
        sql<number>`max(ts)`.as('last_seen'),
        sql<number>`max(id)`.as('last_id'),
      ])
      .groupBy('fingerprint')
      .orderBy(sql`max(ts)`, 'desc')
      .orderBy('fingerprint')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    const ids = groups.map((g) => Number(g.last_id));
    const latest = new Map(
      (await this.db.selectFrom('web_events').selectAll().where('id', 'in', ids).execute()).map((r) => [
        Number(r.id),
        r,
      ]),
    );
    const rows = groups.map((g): WebErrorGroupRow => {
      const r = latest.get(Number(g.last_id));
      return {
        fingerprint: g.fingerprint,
        kind: (r?.kind ?? 'error') as WebEventKind,
        message: r?.message ?? '',
        route: r?.route ?? '',
        count: Number(g.n),
        sessions: Number(g.sessions),
        accounts: Number(g.accounts),
        firstSeen: Number(g.first_seen),
        lastSeen: Number(g.last_seen),
        release: r?.release ?? '',
        lastId: Number(g.last_id),
      };
    });
    return { total, rows };
  }

  /** Releases seen in the range (not the release filter), newest first. */
  async releases(f: WebEventFilter, limit = 20): Promise<string[]> {
    const rows = await this.filtered({ ...f, release: undefined })
      .select(['release', sql<number>`max(ts)`.as('last')])
      .where('release', '<>', '')
      .groupBy('release')
      .orderBy(sql`max(ts)`, 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.release);
  }

  /** The events of one fingerprint, latest first. */
  async events(
    fingerprint: string,
    f: WebEventFilter,
    page: number,
    pagesize: number,
  ): Promise<{ total: number; rows: WebErrorEventRow[] }> {
    const q = this.filtered(f).where('fingerprint', '=', fingerprint);
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await q
      .selectAll()
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return { total, rows: rows.map(rowOf) };
  }

  async event(id: number): Promise<WebErrorEventDetail | undefined> {
    const r = await this.db.selectFrom('web_events').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? { ...rowOf(r), stack: r.stack, breadcrumbs: crumbsOf(r.breadcrumbs) } : undefined;
  }

  prune(before: number, opts?: PruneOptions): Promise<number> {
    return deleteOlderInBatches(this.root, 'web_events', before, opts);
  }
}
