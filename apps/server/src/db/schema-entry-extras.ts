import type { Generated } from 'kysely';

/** Experience codes (migration 0020). */
export interface InvCodesTable {
  id: Generated<number>;
  code: string;
  account_id: number;
  valid_from: number;
  valid_to: number;
  uses: Generated<number>;
  note: Generated<string>;
  created_by: number | null;
  created_at: number;
}

/** Applications for an experience code (migration 0020). */
export interface InvCodeAppliesTable {
  id: Generated<number>;
  apply_name: string;
  company_name: Generated<string>;
  company_address: Generated<string>;
  phone_number: string;
  email: string;
  reason: string;
  status: string;
  sys_type: string;
  create_time: string;
  ip: Generated<string>;
  received_at: number;
}

/** QR sign-in keys (migration 0020); the key is kept as its SHA-256 only. */
export interface QrLoginsTable {
  id: Generated<number>;
  key_hash: string;
  state: Generated<'waiting' | 'scanned' | 'confirmed' | 'refused' | 'used'>;
  account_id: number | null;
  demo: Generated<number>;
  ip: Generated<string>;
  created_at: number;
  expires_at: number;
}

export interface EntryExtrasTables {
  inv_codes: InvCodesTable;
  inv_code_applies: InvCodeAppliesTable;
  qr_logins: QrLoginsTable;
}
