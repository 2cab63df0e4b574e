import type { ActionLogRow } from '@sunwatch/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Insertable, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { deleteOlderInBatches, type PruneOptions } from '../../db/prune.js';
import type { ActionLogTable } from '../../db/schema.js';
import { isSecretKey, redactParams, redactText, REDACTED } from '../../security/redact.js';

export type ActionLogEntry = Omit<Insertable<ActionLogTable>, 'id' | 'params'> & { params: Record<string, unknown> };

const MAX_PARAMS_CHARS = 4000;

/**
 * The stored form of a call's parameters: every secret value (sign, salt, token, passwords,
 * RC4 password fields, remember tokens; `isSecretKey`) replaced, JSON, capped in length.
 */
export function storedParams(params: Record<string, unknown>): string {
  const json = JSON.stringify(redactParams(params));
  return json.length > MAX_PARAMS_CHARS ? json.slice(0, MAX_PARAMS_CHARS) : json;
}

/** The operator's filter of the action log (issue 14, `queryActionLog`). */
export interface ActionLogFilter {
  /** Account name: exact (case-insensitive), or a prefix when it ends with `*`. */
  usr?: string | undefined;
  /** Action name: exact, or a prefix when it ends with `*`. */
  action?: string | undefined;
  /** Only failed calls (err ≠ 0). */
  errOnly?: boolean | undefined;
  /** Only calls that answered this err code. */
  err?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** Client address prefix. */
  ip?: string | undefined;
}

// A last `"key":"value` pair cut by the length cap (no closing quote).
const CUT_PAIR = /(["'])([^"'\s:]{1,64})\1(\s*:\s*)(["'])([^"']*)$/;

/**
 * The parameters of a stored row as answered to the operator: parsed, and redacted once more
 * (secret names that were added after the row was written, or a row written by an older
 * version). A text cut at the length cap is answered as text, scrubbed the same way.
 */
export function answeredParams(stored: string): Record<string, unknown> | string {
  try {
    const v = JSON.parse(stored) as unknown;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return redactParams(v as Record<string, unknown>);
  } catch {
    // cut at MAX_PARAMS_CHARS: scrubbed as text below
  }
  return redactText(stored).replace(CUT_PAIR, (all, q: string, key: string, colon: string, vq: string) =>
    isSecretKey(key) ? `${q}${key}${q}${colon}${vq}${REDACTED}` : all,
  );
}

/** `abc*` → a LIKE prefix pattern (wildcards of the text escaped); undefined when not a prefix. */
function prefixPattern(s: string): string | undefined {
  if (!s.endsWith('*')) return undefined;
  return `${s.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The action log: every call of the action endpoint and every write. Entries are queued and
 * written in batches off the request path; `flush()` drains the queue (tests, shutdown).
 * The write promise is always tracked and its failure logged, never left floating.
 */
export class ActionLog {
  private queue: Insertable<ActionLogTable>[] = [];
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly batchDelayMs = 50,
    private readonly maxBatch = 200,
  ) {}

  /** Rows waiting to be written (the queue-depth gauge of /metrics). */
  get queued(): number {
    return this.queue.length;
  }

  record(entry: ActionLogEntry): void {
    this.queue.push({ ...entry, params: storedParams(entry.params) });
    if (this.queue.length >= this.maxBatch) this.startWrite();
    else this.timer ??= setTimeout(() => this.startWrite(), this.batchDelayMs);
  }

  /** Writes everything queued so far. */
  async flush(): Promise<void> {
    while (this.writing || this.queue.length > 0) {
      if (!this.writing) this.startWrite();
      await this.writing;
    }
  }

  private startWrite(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.writing || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.writing = this.db
      .insertInto('action_log')
      .values(batch)
      .execute()
      .then(
        () => undefined,
        (e: unknown) => this.log.error({ err: e, rows: batch.length }, 'action log write failed'),
      )
      .finally(() => {
        this.writing = undefined;
        if (this.queue.length > 0) this.timer ??= setTimeout(() => this.startWrite(), this.batchDelayMs);
      });
  }

  /** Calls matching `f`, newest first, paged (the operator's `actionLog` page, issue 14). */
  async list(f: ActionLogFilter, page: number, pagesize: number): Promise<{ total: number; rows: ActionLogRow[] }> {
    let q = this.db.selectFrom('action_log');
    if (f.usr) {
      const p = prefixPattern(f.usr.toLowerCase());
      q = p
        ? q.where(sql<SqlBool>`lower(usr) like ${p} escape '\\'`)
        : q.where(sql<SqlBool>`lower(usr) = ${f.usr.toLowerCase()}`);
    }
    if (f.action) {
      const p = prefixPattern(f.action);
      q = p ? q.where(sql<SqlBool>`action like ${p} escape '\\'`) : q.where('action', '=', f.action);
    }
    if (f.err !== undefined) q = q.where('err', '=', f.err);
    else if (f.errOnly) q = q.where('err', '<>', 0);
    if (f.from !== undefined) q = q.where('ts', '>=', f.from);
    if (f.to !== undefined) q = q.where('ts', '<', f.to);
    if (f.ip) q = q.where(sql<SqlBool>`ip like ${`${f.ip.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
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
    return {
      total,
      rows: rows.map((r) => ({
        id: Number(r.id),
        ts: Number(r.ts),
        accountId: r.account_id == null ? null : Number(r.account_id),
        usr: r.usr ?? '',
        action: r.action,
        ip: r.ip,
        userAgent: r.user_agent,
        params: answeredParams(r.params),
        err: Number(r.err),
        durationMs: Number(r.duration_ms),
      })),
    };
  }

  /** Deletes the calls older than `before` (epoch ms) in batches (the retention job); returns the rows removed. */
  prune(before: number, opts?: PruneOptions): Promise<number> {
    return deleteOlderInBatches(this.db, 'action_log', before, opts);
  }

  /** Stops the timer and writes what is left (app shutdown). */
  async close(): Promise<void> {
    await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
