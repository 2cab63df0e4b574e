import { randomBytes } from 'node:crypto';
import { ACCELERATION_RETRY_MS, ApiError, type CommandAck } from '@sunwatch/protocol';
import type { DbHandle } from '../../db/transaction.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DataloggerCommands } from '../operations/command.service.js';
import type { OperationLog } from '../operations/operation-log.service.js';
import type { AccelerationChangeRecord, AccelerationRepository } from './acceleration.repository.js';

export interface AccelerationDeliveryDeps {
  repo: AccelerationRepository;
  dbh: DbHandle;
  commands: Pick<DataloggerCommands, 'send'>;
  audit: Pick<AuditService, 'record'>;
  operations: Pick<OperationLog, 'record'>;
  /** Unpaid orders past their window → expired (AccelerationService.expireLapsed). */
  expireLapsed: () => Promise<number>;
  now: () => number;
  log: { warn(obj: unknown, msg?: string): void };
  /** Sweep period and retry delay (ms), default ACCELERATION_RETRY_MS. */
  retryMs?: number;
  /** A claimed change is this instance's for this long (longer than the ack timeout). */
  leaseMs?: number;
  instance?: string;
}

const ACTOR = { accountId: null, usr: 'acceleration', action: 'accelerationDelivery' };

/**
 * Delivers the interval changes of paid acceleration orders: every `retryMs` (and soon after a
 * payment) each pending change is claimed (a lease in its row, so with several server instances
 * one sends it), the `collect_interval` command is sent over MQTT, and:
 * - positive ack → `applied`: dataloggers.collect_interval set, ack time and reported interval kept,
 *   audited (datalogger before → after) and in the datalogger's operation history;
 * - negative ack → `refused` (the datalogger's error kept): a person must look;
 * - offline (263) or no ack in time (2) → stays `pending` and is retried on a later sweep, so a
 *   datalogger that is offline when paid for is accelerated when it comes back.
 * Commands are never sent inside a database transaction.
 */
export class AccelerationDelivery {
  private timer: NodeJS.Timeout | undefined;
  private kickTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  readonly instance: string;
  private readonly retryMs: number;
  private readonly leaseMs: number;

  constructor(private readonly deps: AccelerationDeliveryDeps) {
    this.instance = deps.instance ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
    this.retryMs = deps.retryMs ?? ACCELERATION_RETRY_MS;
    this.leaseMs = deps.leaseMs ?? 60_000;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), this.retryMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.kickTimer) clearTimeout(this.kickTimer);
    this.timer = undefined;
    this.kickTimer = undefined;
    await this.running;
  }

  /** A payment queued a change: sweep shortly (after the payment's transaction committed). */
  kick(): void {
    if (!this.timer || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      void this.sweep();
    }, 200);
    this.kickTimer.unref?.();
  }

  /** One pass: lapse unpaid orders, then try every due pending change. Overlapping calls run once more after. */
  sweep(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'acceleration sweep failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.sweep();
        }
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    await this.deps.expireLapsed();
    const due = await this.deps.repo.duePending(this.deps.now(), 50);
    // One datalogger's changes in order (the later order wins), different dataloggers at once.
    const byPn = new Map<string, AccelerationChangeRecord[]>();
    for (const c of due) byPn.set(c.pn, [...(byPn.get(c.pn) ?? []), c]);
    await Promise.all(
      [...byPn.values()].map(async (list) => {
        for (const c of list) if (!(await this.deliver(c))) break;
      }),
    );
  }

  /** Sends one change; true when it left `pending` (the next change of the datalogger may go). */
  async deliver(c: AccelerationChangeRecord): Promise<boolean> {
    const now = this.deps.now();
    if (!(await this.deps.repo.claim(Number(c.id), Number(c.lease_until), this.instance, now + this.leaseMs)))
      return false;
    const to = Number(c.to_interval_s);
    const attempts = Number(c.attempts);
    let ack: CommandAck;
    try {
      ack = await this.deps.commands.send(c.pn, 'collect_interval', { collect_interval: to }, { usr: 'acceleration' });
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 1;
      if (code === 257) {
        // The datalogger was deleted: nothing will ever take the interval.
        await this.finish(c, 'refused', attempts, 'datalogger deleted', null);
        return true;
      }
      // 263 offline / not connected: not sent, retried; 2 no ack: sent, retried.
      await this.deps.repo.updateChange(Number(c.id), this.instance, {
        attempts: code === 263 ? attempts : attempts + 1,
        last_error: code === 263 ? 'offline' : code === 2 ? 'timeout' : `error ${code}`,
        lease_owner: '',
        lease_until: this.deps.now() + this.retryMs,
        updated_at: this.deps.now(),
      });
      return false;
    }
    if (!ack.ok) {
      const why = `refused ${ack.code ?? 1}${ack.error ? `: ${ack.error}` : ''}`.slice(0, 200);
      await this.finish(c, 'refused', attempts + 1, why, null);
      return true;
    }
    const reported = Number(ack.result?.collect_interval);
    await this.finish(c, 'applied', attempts + 1, '', Number.isInteger(reported) ? reported : to);
    return true;
  }

  private async finish(
    c: AccelerationChangeRecord,
    status: 'applied' | 'refused',
    attempts: number,
    error: string,
    ackInterval: number | null,
  ): Promise<void> {
    const now = this.deps.now();
    const from = Number(c.from_interval_s);
    const to = Number(c.to_interval_s);
    await this.deps.dbh.transaction(async () => {
      const mine = await this.deps.repo.updateChange(Number(c.id), this.instance, {
        status,
        attempts,
        last_error: error,
        ack_interval_s: ackInterval,
        applied_at: status === 'applied' ? now : null,
        lease_owner: '',
        lease_until: 0,
        updated_at: now,
      });
      if (!mine) return; // the lease passed to another instance meanwhile: its outcome stands
      if (status === 'applied')
        await this.deps.repo.setCollectInterval(Number(c.datalogger_id), ackInterval ?? to, now);
      await this.deps.audit.record(
        status === 'applied'
          ? {
              entity: 'datalogger',
              entityId: c.pn,
              before: { collect_interval: from },
              after: { collect_interval: ackInterval ?? to, order: c.order_no },
            }
          : {
              entity: 'acceleration_change',
              entityId: c.order_no,
              before: { status: 'pending' },
              after: { status, error },
            },
        ACTOR,
      );
    });
    await this.deps.operations.record({
      accountId: null,
      usr: 'acceleration',
      action: 'accelerationOrder',
      pn: c.pn,
      kind: 'collect_interval',
      target: 'collect_interval',
      before: { collect_interval: from },
      after: { collect_interval: to, order: c.order_no },
      result: status === 'applied' ? 0 : 8,
      ...(error ? { detail: error } : {}),
    });
  }
}
