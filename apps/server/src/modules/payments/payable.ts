import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/** An order as the payment flow sees it. Amounts are integers in minor units. */
export interface PayableOrder {
  orderNo: string;
  accountId: number;
  amountMinor: number;
  currency: string;
  status: string;
  description: string;
}

/** One kind of order that can be paid (recharge, acceleration). Called inside the payment's transaction. */
export interface PayableKind {
  readonly kind: 'recharge' | 'acceleration';
  /** The order, or undefined when unknown. */
  load(db: Kysely<Database> | Transaction<Database>, orderNo: string): Promise<PayableOrder | undefined>;
  /** The provider confirmed the payment: move the order on (compare-and-set from unpaid/expired); false if it was no longer payable. */
  paid(trx: Transaction<Database>, orderNo: string, providerRef: string, at: number): Promise<boolean>;
  /** The provider reported a failed payment: false if nothing changed. */
  failed(trx: Transaction<Database>, orderNo: string, reason: string, at: number): Promise<boolean>;
}
