import type { Generated } from 'kysely';

/** Issue 12 platform notices and contact info (migration 0021). */
export interface PlatformNoticesTable {
  id: Generated<number>;
  client_language: number;
  msg_type: number;
  title: string;
  content: string;
  updated_by: number | null;
  updated_at: number;
}

export interface ConsultParamsTable {
  host: string;
  phone_num: string;
  email: string;
  wechat: string;
  english_name: string;
  updated_by: number | null;
  updated_at: number;
}

export interface BrandingTables {
  platform_notices: PlatformNoticesTable;
  consult_params: ConsultParamsTable;
}
