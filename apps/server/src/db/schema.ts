import type { ColumnType, Generated } from 'kysely';
import type { SelfServiceTables } from './schema-selfservice.js';

/**
 * Table types. Portable across SQLite and PostgreSQL: instants are epoch milliseconds
 * (bigint in pg, parsed to number), flags are 0/1 integers, JSON is text.
 */
export interface AccountsTable {
  id: Generated<number>;
  usr: string;
  role: number;
  parent_id: number | null;
  /** Materialised path of ids, `/1/4/9/` (own id last): the subtree of X is `path LIKE '<X.path>%'`. */
  path: string;
  /** ACCOUNT_STATUS */
  status: number;
  qname: string;
  email: string;
  mobile: string;
  photo: string;
  qq: string;
  wx: string;
  cname: string;
  caddr: string;
  ctel: string;
  bomb: number;
  description: string;
  vendor_code: string | null;
  dealer_code: string | null;
  can_add_datalogger: number;
  /** User group (admin "group" field of spec §3), if any. */
  group_id: number | null;
  role_permission_id: number | null;
  /** Data permission (JSON) of spec §3 Account. */
  data_permission: string | null;
  /** Group accounts (role 3): the user group whose members' data they see (migration 0007). */
  member_group_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** Role 2 function permissions: JSON array of granted names; null = all. */
  permissions: string | null;
  /** Sub-administrators: the distributor/manufacturer whose subtree they act on. */
  admin_of: number | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  last_login_at: number | null;
  last_login_ip: string | null;
  /** AES-256-GCM(data key, sha1hex(password)), base64. */
  pwd_cipher: string;
  /** The per-account data key wrapped by the master key, base64. */
  data_key: string;
}

export interface GroupMembersTable {
  group_id: number;
  member_id: number;
}

/** Migration 0007: user groups of an administrator. */
export interface UserGroupsTable {
  id: Generated<number>;
  admin_id: number;
  name: string;
  note: string;
  created_at: number;
  updated_at: number;
}

/** Migration 0007: custom roles (function points JSON, data permission group ids JSON). */
export interface CustomRolesTable {
  id: Generated<number>;
  admin_id: number;
  name: string;
  description: string;
  functions: string;
  data_groups: string;
  created_at: number;
  updated_at: number;
}

/** Migration 0007: control-field visibility per administrator × devcode × control (no row = visible). */
export interface CtrlFieldVisibilityTable {
  admin_id: number;
  devcode: number;
  control_id: string;
  owner_visible: number;
  subadmin_visible: number;
}

export interface SessionsTable {
  id: Generated<number>;
  account_id: number;
  token_hash: string;
  /** Session secret encrypted with the session key (AAD = token hash). */
  secret_cipher: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  ip: string;
  user_agent: string;
  /** 1 = a read-only demo session (experience code, migration 0020). */
  demo: Generated<number>;
  /** The experience code a demo session was opened with (migration 0026); null otherwise. */
  inv_code_id: Generated<number | null>;
}

export interface RememberTokensTable {
  id: Generated<number>;
  account_id: number;
  token_hash: string;
  /** All rotations of one remember-me sign-in share a family; reuse of a rotated token revokes the family. */
  family: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  rotated_at: number | null;
}

export interface LoginThrottleTable {
  /** `pair:<accountId>:<ip>`, `addr:<ip>` or `acct:<accountId>`. */
  key: string;
  failures: number;
  window_start: number;
  blocked_until: number;
  blocks: number;
  updated_at: number;
}

export interface KnownAddressesTable {
  account_id: number;
  ip: string;
  last_success_at: number;
}

export interface ActionLogTable {
  id: Generated<number>;
  ts: number;
  account_id: number | null;
  usr: string | null;
  action: string;
  ip: string;
  user_agent: string;
  params: string;
  err: number;
  duration_ms: number;
}

/** Company keys (issue 14, migration 0027): the key only as its SHA-256 digest and a hint. */
export interface CompanyKeysTable {
  id: Generated<number>;
  key_hash: string;
  key_hint: Generated<string>;
  company: Generated<string>;
  version: Generated<string>;
  client: Generated<string>;
  domain: Generated<string>;
  contact: Generated<string>;
  description: Generated<string>;
  hostname: Generated<string>;
  enabled: Generated<number>;
  seeded: Generated<number>;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

/** Settings of the whole platform, key → JSON value (issue 14, migration 0032; log retention first). */
export interface PlatformSettingsTable {
  key: string;
  value: string;
  updated_at: number;
  updated_by: string | null;
}

/** Custom domains (issue 14 white-labelling, migration 0036): host → entry-page look. */
export interface CustomDomainsTable {
  id: Generated<number>;
  host: string;
  vendor_id: number | null;
  title: Generated<string>;
  languages: Generated<string>;
  force_language: Generated<string>;
  demo: Generated<number>;
  qr_login: Generated<number>;
  phone_num: Generated<string>;
  email: Generated<string>;
  wechat: Generated<string>;
  english_name: Generated<string>;
  logo: Uint8Array | null;
  logo_type: Generated<string>;
  logo_sha: Generated<string>;
  logo_size: Generated<number>;
  background: Uint8Array | null;
  background_type: Generated<string>;
  background_sha: Generated<string>;
  background_size: Generated<number>;
  enabled: Generated<number>;
  seeded: Generated<number>;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

/** PN rules (issue 14 factoryCode, migration 0028): PNs starting with `prefix` belong to `vendor_id`. */

export interface ManufacturerCodesTable {
  id: Generated<number>;
  vendor_id: number;
  code: string;
  type_code: string;
  prefix: string;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

export interface DataloggerTypeCodesTable {
  code: string;
  name: string;
  comm_method: string;
  description: Generated<string>;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

/** Migration 0033: a manufacturer's name and ecoin balance (issue 14, factoryAccount). */
export interface ManufacturersTable {
  account_id: number;
  name: string;
  ecoin: number;
  updated_at: number;
  updated_by: string | null;
}

export interface ProtocolBindingsTable {
  id: Generated<number>;
  devcode: number;
  scope: string;
  type_code: Generated<string>;
  pn_from: Generated<string>;
  pn_to: Generated<string>;
  note: Generated<string>;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
  updated_by: string | null;
}

export interface DeviceDevcodeChangesTable {
  id: Generated<number>;
  device_id: number;
  pn: string;
  sn: string;
  devaddr: number;
  old_devcode: number;
  new_devcode: number;
  reason: string;
  changed_by: string;
  changed_at: number;
  from_ts: number;
}

/** Migration 0033: the devcodes a manufacturer's area may see (no row = all). */
export interface ManufacturerDevcodesTable {
  vendor_id: number;
  devcode: number;
}

/** Migration 0033: every ecoin adjustment (delta, the balance after it, the reason). */
export interface ManufacturerEcoinLogTable {
  id: Generated<number>;
  vendor_id: number;
  delta: number;
  balance: number;
  reason: string;
  usr: string;
  created_at: number;
}

/** One row (id 1): raised by triggers whenever a session or the auth state of an account changes (migration 0043). */
export interface AuthEpochTable {
  id: number;
  epoch: number;
}

export interface SeenSignsTable {
  sign: string;
  seen_at: number;
  /** Epoch ms after which the row may be pruned (migration 0004). */
  expires_at: number;
}

/** One change made by a mutating action (migration 0005): who, what, before → after (JSON, redacted). */
export interface AuditLogTable {
  id: Generated<number>;
  ts: number;
  account_id: number | null;
  usr: string | null;
  action: string;
  /** What kind of row changed: 'account', 'session', 'remember_token', 'device_follow', … */
  entity: string;
  entity_id: string | null;
  before: string | null;
  after: string | null;
}

/** A datalogger order (migration 0008): sold by a manufacturer to a distributor. */
export interface DataloggerOrdersTable {
  id: Generated<number>;
  order_no: string;
  vendor_code: string;
  dist_id: number;
  /** 0 open, 1 rejected. */
  status: number;
  bound_to: number | null;
  bound_at: number | null;
  created_at: number;
}

export interface DataloggerOrderItemsTable {
  order_id: number;
  pn: string;
}

/** Operation history of dataloggers and devices (migration 0009): who, what, old → new, result. */
export interface OperationLogTable {
  id: Generated<number>;
  ts: number;
  account_id: number | null;
  usr: string | null;
  action: string;
  pn: string;
  devcode: number | null;
  devaddr: number | null;
  sn: string | null;
  kind: string;
  target: string;
  before: string | null;
  after: string | null;
  result: number;
  detail: string | null;
}

/** The datalogger log (migration 0011): connections, heartbeat gaps, commands and their outcome. */
export interface DataloggerEventsTable {
  id: Generated<number>;
  ts: number;
  pn: string;
  kind: string;
  cmd: Generated<string>;
  result: Generated<number>;
  usr: Generated<string>;
  detail: Generated<string>;
}

/** Device-control password of a manufacturer's domain (issue 10, migration 0012). */
export interface DeviceCtrlPasswordsTable {
  vendor_id: number;
  hash: string;
  updated_by: number | null;
  updated_at: number;
}

/** Report exports (issue 10, migration 0012). */
export interface ExportFilesTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  name: string;
  pn: string;
  sn: string;
  device_id: number | null;
  sdate: string;
  edate: string;
  locale: string;
  status: number;
  progress: number;
  size: number;
  data: Uint8Array | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
  /** The job lease (migration 0025, db/job-lease.ts). */
  lease_owner: Generated<string>;
  lease_until: Generated<number>;
  attempts: Generated<number>;
}

export type { TelemetryTables } from './schema-telemetry.js';
import type { TelemetryTables } from './schema-telemetry.js';
import type { IngestTables } from './schema-ingest.js';
import type { ReportTables } from './schema-reports.js';
import type { BrandingTables } from './schema-branding.js';
import type { NotificationTables } from './schema-notifications.js';
import type { EntryExtrasTables } from './schema-entry-extras.js';
import type { FirmwareTables } from './schema-firmware.js';
import type { RechargeTables } from './schema-recharge.js';
import type { TariffTables } from './schema-tariffs.js';
import type { PaymentTables } from './schema-payments.js';
import type { AccelerationTables } from './schema-acceleration.js';
import type { WebEventTables } from './schema-web-events.js';

export interface Database
  extends TelemetryTables,
    IngestTables,
    ReportTables,
    NotificationTables,
    SelfServiceTables,
    EntryExtrasTables,
    BrandingTables,
    FirmwareTables,
    RechargeTables,
    TariffTables,
    PaymentTables,
    AccelerationTables,
    WebEventTables {
  accounts: AccountsTable;
  group_members: GroupMembersTable;
  user_groups: UserGroupsTable;
  custom_roles: CustomRolesTable;
  ctrl_field_visibility: CtrlFieldVisibilityTable;
  sessions: SessionsTable;
  remember_tokens: RememberTokensTable;
  login_throttle: LoginThrottleTable;
  known_addresses: KnownAddressesTable;
  action_log: ActionLogTable;
  company_keys: CompanyKeysTable;
  manufacturer_codes: ManufacturerCodesTable;
  platform_settings: PlatformSettingsTable;
  datalogger_type_codes: DataloggerTypeCodesTable;
  protocol_bindings: ProtocolBindingsTable;
  device_devcode_changes: DeviceDevcodeChangesTable;
  custom_domains: CustomDomainsTable;
  manufacturers: ManufacturersTable;
  manufacturer_devcodes: ManufacturerDevcodesTable;
  manufacturer_ecoin_log: ManufacturerEcoinLogTable;
  seen_signs: SeenSignsTable;
  auth_epoch: AuthEpochTable;
  audit_log: AuditLogTable;
  datalogger_orders: DataloggerOrdersTable;
  operation_log: OperationLogTable;
  datalogger_events: DataloggerEventsTable;
  device_ctrl_passwords: DeviceCtrlPasswordsTable;
  export_files: ExportFilesTable;
  datalogger_order_items: DataloggerOrderItemsTable;
}
