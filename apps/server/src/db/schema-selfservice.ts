import type { Generated } from 'kysely';

/** Migration 0019-selfservice. */
export interface VerificationCodesTable {
  id: Generated<number>;
  /** CODE_PURPOSES of the protocol: signup, reset, bind, unbind. */
  purpose: string;
  /** 0 phone, 1 email. */
  channel: number;
  /** The phone number or the lower-cased email address the code went to. */
  target: string;
  account_id: number | null;
  /** `<salt hex>:<sha256 hex of salt + code>`; never the code. */
  code_hash: string;
  ip: string;
  attempts: number;
  /** 1 once confirmSmsCode accepted it (the reset may then use it once). */
  confirmed: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PictureCodesTable {
  key: string;
  code_hash: string;
  ip: string;
  created_at: number;
  expires_at: number;
}

export interface SelfServiceTables {
  verification_codes: VerificationCodesTable;
  picture_codes: PictureCodesTable;
}
