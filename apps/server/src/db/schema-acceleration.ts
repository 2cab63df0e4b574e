import type { Generated } from 'kysely';

/**
 * Acceleration orders and the interval changes they cause (migration 0041; issue 15). States,
 * types and the price are packages/protocol/src/acceleration.ts; amounts are minor units.
 */
export interface AccelerationOrdersTable {
  id: Generated<number>;
  order_no: string;
  account_id: number;
  account_usr: string;
  datalogger_id: number;
  pn: string;
  /** The datalogger's owner when ordered. */
  owner_id: number | null;
  /** AccelerationType */
  type: string;
  interval_s: number;
  from_interval_s: number;
  storage_months: Generated<number>;
  parameters: number;
  loads: number;
  amount_minor: number;
  currency: string;
  method: Generated<string>;
  channel: Generated<string>;
  /** AccelerationOrderStatus */
  status: string;
  provider_ref: Generated<string>;
  fail_reason: Generated<string>;
  terms_accepted_at: number;
  created_at: number;
  paid_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

export interface AccelerationChangesTable {
  id: Generated<number>;
  order_id: number;
  datalogger_id: number;
  pn: string;
  from_interval_s: number;
  to_interval_s: number;
  /** AccelerationChangeStatus */
  status: string;
  attempts: Generated<number>;
  last_error: Generated<string>;
  ack_interval_s: number | null;
  lease_owner: Generated<string>;
  lease_until: Generated<number>;
  created_at: number;
  applied_at: number | null;
  updated_at: number;
}

export interface AccelerationTables {
  acceleration_orders: AccelerationOrdersTable;
  acceleration_changes: AccelerationChangesTable;
}
