import type { OperationKind } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import type { DbHandle } from '../../db/transaction.js';
import { auditJson } from '../audit/audit.service.js';

/** One entry of the operation history (who did what to which datalogger or device, and how it went). */
export interface OperationEntry {
  accountId: number | null;
  usr: string | null;
  /** The action name (ctrlDevice, restartCollector, …). */
  action: string;
  pn: string;
  device?: { devcode: number; devaddr: number; sn: string };
  kind: OperationKind;
  /** Control field id or edited attribute. */
  target?: string;
  before?: unknown;
  after?: unknown;
  /** 0 done, else the err code answered. */
  result: number;
  detail?: string;
}

/**
 * The operation history of dataloggers and devices. `record` is durable: inside a transaction it
 * is written after the transaction ends, committed or rolled back, so failures stay recorded.
 * Values go through the audit redaction (no secrets).
 */
export class OperationLog {
  constructor(
    private readonly deps: {
      db: Db;
      dbh: DbHandle;
      now: () => number;
    },
  ) {}

  async record(e: OperationEntry): Promise<void> {
    const row = {
      ts: this.deps.now(),
      account_id: e.accountId,
      usr: e.usr,
      action: e.action,
      pn: e.pn,
      devcode: e.device?.devcode ?? null,
      devaddr: e.device?.devaddr ?? null,
      sn: e.device?.sn ?? null,
      kind: e.kind,
      target: e.target ?? '',
      before: auditJson(e.before),
      after: auditJson(e.after),
      result: e.result,
      detail: e.detail === undefined ? null : e.detail.slice(0, 2000),
    };
    const write = async () => {
      await this.deps.db.insertInto('operation_log').values(row).execute();
    };
    if (this.deps.dbh.inTransaction) await this.deps.dbh.durable(write);
    else await write();
  }
}
