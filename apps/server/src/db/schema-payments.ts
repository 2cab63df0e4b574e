import type { Generated } from 'kysely';

/** Issue 15 payments (migration 0040). Amounts in minor units; states in protocol payments.ts. */
export interface PaymentsTable {
  id: Generated<number>;
  session_id: string;
  /** PaymentKind */
  kind: string;
  order_no: string;
  account_id: number;
  provider: string;
  method: string;
  amount_minor: number;
  currency: string;
  /** PaymentState */
  status: string;
  provider_ref: Generated<string>;
  return_path: Generated<string>;
  locale: Generated<string>;
  fail_reason: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface PaymentEventsTable {
  id: Generated<number>;
  provider: string;
  event_id: string;
  session_id: string;
  type: string;
  outcome: string;
  received_at: number;
}

export interface PaymentTables {
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
}
