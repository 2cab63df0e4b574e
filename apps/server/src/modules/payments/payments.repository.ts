import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import type { PaymentEventsTable, PaymentsTable } from '../../db/schema-payments.js';
import { currentDb } from '../../db/transaction.js';

export type PaymentRecord = Selectable<PaymentsTable>;

function normalize(r: PaymentRecord): PaymentRecord {
  return {
    ...r,
    id: Number(r.id),
    account_id: Number(r.account_id),
    amount_minor: Number(r.amount_minor),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

/** SQL of payments and payment_events (migration 0040). Joins the caller's transaction. */
export class PaymentsRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async insert(row: Insertable<PaymentsTable>): Promise<number> {
    const r = await this.db.insertInto('payments').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async bySession(sessionId: string): Promise<PaymentRecord | undefined> {
    const r = await this.db.selectFrom('payments').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
    return r && normalize(r);
  }

  /** The latest attempt of an order. */
  async lastOf(kind: string, orderNo: string): Promise<PaymentRecord | undefined> {
    const r = await this.db
      .selectFrom('payments')
      .selectAll()
      .where('kind', '=', kind)
      .where('order_no', '=', orderNo)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r && normalize(r);
  }

  /** Compare-and-set of an attempt's state; true when this call moved it. */
  async setStatus(
    id: number,
    from: string,
    to: string,
    extra: { provider_ref?: string; fail_reason?: string; updated_at: number },
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('payments')
      .set({ status: to, ...extra })
      .where('id', '=', id)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Records a webhook event; false when its (provider, event id) was seen before. */
  async recordEvent(row: Insertable<PaymentEventsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('payment_events')
      .values(row)
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }

  async setEventOutcome(provider: string, eventId: string, outcome: string): Promise<void> {
    await this.db
      .updateTable('payment_events')
      .set({ outcome })
      .where('provider', '=', provider)
      .where('event_id', '=', eventId)
      .execute();
  }

  async events(sessionId: string): Promise<Selectable<PaymentEventsTable>[]> {
    return this.db.selectFrom('payment_events').selectAll().where('session_id', '=', sessionId).orderBy('id').execute();
  }
}
