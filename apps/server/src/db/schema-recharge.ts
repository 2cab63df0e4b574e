import type { Generated } from 'kysely';

/**
 * Recharge orders (migration 0037; issue 14 rechargeRemedy, issue 15 checkout). Amounts are
 * integers in minor units; states and card statuses are packages/protocol/src/recharge.ts.
 */
export interface RechargeOrdersTable {
  id: Generated<number>;
  order_no: string;
  account_id: number;
  account_usr: string;
  vendor_id: number | null;
  months: number;
  package: Generated<string>;
  amount_minor: number;
  discount_minor: Generated<number>;
  currency: string;
  method: Generated<string>;
  channel: Generated<string>;
  area: string;
  /** RechargeOrderStatus */
  status: string;
  provider_ref: Generated<string>;
  created_at: number;
  paid_at: number | null;
  finished_at: number | null;
  updated_at: number;
  /** Migration 0040: when the credit must have arrived (then overdue). */
  credit_due_at: Generated<number | null>;
}

export interface RechargeOrderItemsTable {
  id: Generated<number>;
  order_id: number;
  pn: string;
  ccid: string;
  load_count: Generated<number>;
  /** dataloggers.card_status at order time (CARD_STATUSES index). */
  card_status: Generated<number>;
  /** RechargeCreditState */
  credit_state: Generated<string>;
  /** Migration 0040: the renewal as applied (epoch ms). */
  expire_before: Generated<number | null>;
  expire_after: Generated<number | null>;
  effective_at: Generated<number | null>;
}

export interface RechargeOrderRemediesTable {
  id: Generated<number>;
  order_id: number;
  from_status: string;
  to_status: string;
  reason: string;
  operator_id: number | null;
  operator_usr: string;
  created_at: number;
}

export interface RechargeTables {
  recharge_orders: RechargeOrdersTable;
  recharge_order_items: RechargeOrderItemsTable;
  recharge_order_remedies: RechargeOrderRemediesTable;
}
