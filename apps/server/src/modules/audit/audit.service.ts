import { AsyncLocalStorage } from 'node:async_hooks';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/db.js';
import type { AuditLogTable } from '../../db/schema.js';
import { currentDb } from '../../db/transaction.js';
import { redactDeep } from '../../security/redact.js';
import type { Clock } from '../../shared/clock.js';

/** One change, as a handler or service reports it (the dispatcher adds who and which action). */
export interface AuditChange {
  /** What kind of row changed: 'account', 'session', 'remember_token', 'device_follow', … */
  entity: string;
  entityId: string | number | null;
  /** The row (or the changed fields) before; null when it was created. Never secret values. */
  before: unknown;
  /** The row (or the changed fields) after; null when it was deleted. Never secret values. */
  after: unknown;
}

/** Who made the changes of one call. */
export interface AuditActor {
  accountId: number | null;
  usr: string | null;
  action: string;
}

interface PendingChange {
  entity: string;
  entityId: string | null;
  before: string | null;
  after: string | null;
  ts: number;
}

interface Collector {
  changes: PendingChange[];
  open: boolean;
}

/** JSON of a before/after value with secret fields and `key=value` secrets redacted (redact.ts). */
export function auditJson(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(redactDeep(value));
}

/**
 * The audit log ("every write is audited: who, what, before → after"). Inside a mutating
 * action the dispatcher opens the transaction and `collect`s: `record` then only notes the
 * change, and the dispatcher writes the rows (with the caller and the action name) in the same
 * transaction after the handler succeeded; a handler that throws leaves no row. Outside an
 * action call (jobs, seeding) `record` writes at once, in the open transaction if any.
 */
export class AuditService {
  private readonly calls = new AsyncLocalStorage<Collector>();

  constructor(
    private readonly root: Db,
    private readonly now: Clock,
  ) {}

  /**
   * Notes one change of the current call (values are redacted and serialised now). Outside a
   * call's collection it is written at once, for `actor` (default: an internal change).
   */
  async record(change: AuditChange, actor?: AuditActor): Promise<void> {
    const pending: PendingChange = {
      entity: change.entity,
      entityId: change.entityId === null ? null : String(change.entityId),
      before: auditJson(change.before),
      after: auditJson(change.after),
      ts: this.now(),
    };
    const collector = this.calls.getStore();
    if (collector?.open) {
      collector.changes.push(pending);
      return;
    }
    await this.write([pending], actor ?? { accountId: null, usr: null, action: 'internal' });
  }

  /** Runs `fn` (an action's handler) collecting its changes; call inside the action's transaction. */
  async collect<T>(fn: () => Promise<T>): Promise<{ result: T; changes: readonly PendingChange[] }> {
    const collector: Collector = { changes: [], open: true };
    try {
      const result = await this.calls.run(collector, fn);
      return { result, changes: collector.changes };
    } finally {
      collector.open = false;
    }
  }

  /** Writes collected changes for their actor, in the open transaction (if any). */
  async write(changes: readonly PendingChange[], actor: AuditActor): Promise<void> {
    if (changes.length === 0) return;
    const rows: Insertable<AuditLogTable>[] = changes.map((c) => ({
      ts: c.ts,
      account_id: actor.accountId,
      usr: actor.usr === null ? null : actor.usr.slice(0, 64),
      action: actor.action.slice(0, 128),
      entity: c.entity,
      entity_id: c.entityId,
      before: c.before,
      after: c.after,
    }));
    await currentDb(this.root).insertInto('audit_log').values(rows).execute();
  }
}
