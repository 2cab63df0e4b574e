import type { Generated } from 'kysely';

/** Issue 13 firmware tables (migration 0022; docs/firmware/contract.md). */
export interface FirmwareSigningKeysTable {
  id: Generated<number>;
  vendor_id: number;
  name: Generated<string>;
  public_key: string;
  fingerprint: string;
  created_by: number | null;
  created_at: number;
  revoked_at: number | null;
}

export interface FirmwaresTable {
  id: Generated<number>;
  code: string;
  vendor_id: number;
  name: string;
  version: string;
  description: Generated<string>;
  type: Generated<number>;
  baud_rate: number | null;
  upgrade_mode: Generated<number>;
  note: Generated<string>;
  i18n: Generated<string>;
  source: Generated<number>;
  file_name: string;
  size: number;
  sha256: string;
  signature: Generated<string>;
  key_id: number | null;
  blob_key: string;
  created_by: number | null;
  created_at: number;
  deleted_at: number | null;
}

export interface DefaultFirmwaresTable {
  vendor_id: number;
  datalogger_type: string;
  firmware_id: number;
  updated_by: number | null;
  updated_at: number;
}

export interface UpgradeBatchesTable {
  id: Generated<number>;
  account_id: number;
  firmware_id: number;
  target: Generated<number>;
  filter: Generated<string>;
  total: Generated<number>;
  created_at: number;
  /** Migration 0027: the materialisation job of a batch by filter (docs/firmware/batches.md). */
  state: Generated<string>;
  fw_type: Generated<number>;
  baud_rate: number | null;
  devcode: number | null;
  usr: Generated<string>;
  materialised: Generated<number>;
  refused: Generated<number>;
  cursor: Generated<string>;
  error: Generated<string>;
  lease_owner: Generated<string>;
  lease_until: Generated<number>;
  attempts: Generated<number>;
  progress: Generated<number>;
  finished_at: number | null;
}

export interface UpgradeTasksTable {
  id: Generated<number>;
  key: string;
  pn: string;
  target: Generated<number>;
  devcode: number | null;
  devaddr: number | null;
  sn: string | null;
  firmware_id: number;
  fw_type: Generated<number>;
  baud_rate: number | null;
  status: Generated<number>;
  phase: Generated<string>;
  progress: Generated<number>;
  sent_bytes: Generated<number>;
  size: Generated<number>;
  from_version: Generated<string>;
  to_version: Generated<string>;
  error: Generated<string>;
  attempts: Generated<number>;
  batch_id: number | null;
  strategy_id: number | null;
  account_id: number | null;
  usr: Generated<string>;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
  lease_owner: Generated<string>;
  lease_until: Generated<number>;
}

export interface UpgradeStrategiesTable {
  id: Generated<number>;
  code: string;
  vendor_id: number;
  created_by: number;
  name: string;
  description: Generated<string>;
  firmware_id: number;
  fw_type: number;
  baud_rate: number;
  method: Generated<number>;
  tz_offset: Generated<number>;
  starts_at: number;
  ends_at: number;
  reminder: Generated<string>;
  canary_percent: Generated<number>;
  failure_threshold_percent: Generated<number>;
  stage: Generated<number>;
  paused: Generated<number>;
  pause_reason: Generated<string>;
  /** The target filter, JSON of StrategyFilter ('' = explicit list only; migration 0027). */
  filter: Generated<string>;
  /** When the filter's population was frozen into the device rows (null: not yet). */
  resolved_at: number | null;
  /** The last `pn:sn` key written while resolving (resumes an interrupted resolution). */
  resolve_cursor: Generated<string>;
  cancelled_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface UpgradeStrategyDevicesTable {
  id: Generated<number>;
  strategy_id: number;
  pn: string;
  target: Generated<number>;
  devcode: number | null;
  devaddr: number | null;
  sn: Generated<string>;
  stage: Generated<number>;
  result: Generated<number>;
  task_key: string | null;
  /** Stable pseudo-random rank of (code, PN, SN): the canary is the lowest ranks (migration 0027). */
  rank: Generated<number>;
  updated_at: number;
}

export interface FirmwareTables {
  firmware_signing_keys: FirmwareSigningKeysTable;
  firmwares: FirmwaresTable;
  default_firmwares: DefaultFirmwaresTable;
  upgrade_batches: UpgradeBatchesTable;
  upgrade_tasks: UpgradeTasksTable;
  upgrade_strategies: UpgradeStrategiesTable;
  upgrade_strategy_devices: UpgradeStrategyDevicesTable;
}
