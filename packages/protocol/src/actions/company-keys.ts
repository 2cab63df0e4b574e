import { z } from 'zod';
import { entryKeySchema } from '../rules.js';
import { HOST_NAME_RE } from './branding-params.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import { COMPANY_KEY_CLIENTS, COMPANY_KEY_TEXT_MAX, type CompanyKeyClient } from './company-keys-params.js';
import { defineAction, result } from './define.js';

/**
 * Issue 14, operator back office, KEYList (spec §3 "Key entry", §5): the company keys a client
 * sends with `auth`/`authSource`/`authByRememberToken` and `reg` (err 15 when it is unknown or
 * disabled). Operator only (role 15). The key itself is a secret: it is stored as a SHA-256
 * digest with its last characters as a hint, never answered, logged or audited
 * (docs/operator/company-keys.md). The vendor pages name no action for this page; the names
 * follow the vendor style.
 */

/** One key entry on the wire (never the key: `keyHint` is its last characters). */
export interface CompanyKeyRow {
  id: number;
  company: string;
  version: string;
  client: CompanyKeyClient | '';
  domain: string;
  contact: string;
  /** The key's last COMPANY_KEY_HINT_CHARS characters. */
  keyHint: string;
  description: string;
  enabled: boolean;
  hostname: string;
  /** True for an entry created from the COMPANY_KEYS environment value at start. */
  seeded: boolean;
  /** Epoch ms. */
  createdAt: number;
  updatedAt: number;
  /** Account name of the last operator who changed it ('' = the start-up seed). */
  updatedBy: string;
}

const text = (max: number) => z.string().trim().min(1).max(max);
const host = () => z.string().trim().max(COMPANY_KEY_TEXT_MAX.host).regex(HOST_NAME_RE);
/** The fields of a key entry (spec §5: all required; the key exactly 16 bytes). */
const entryFields = {
  company: z.string().trim().min(2).max(COMPANY_KEY_TEXT_MAX.company),
  version: text(COMPANY_KEY_TEXT_MAX.version),
  client: z.enum(COMPANY_KEY_CLIENTS),
  domain: host(),
  contact: text(COMPANY_KEY_TEXT_MAX.contact),
  description: text(COMPANY_KEY_TEXT_MAX.description),
  enabled: wireBool(),
  hostname: host(),
};

export const queryCompanyKeyList = defineAction({
  name: 'queryCompanyKeyList',
  summary:
    'Operator: the company keys, newest first, paged on the server; `search` matches company, domain, host name, contact, description or the last key characters; `client` and `enabled` (0/1) filter. {total,page,pagesize,keys:[CompanyKeyRow]}.',
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    client: z.enum(COMPANY_KEY_CLIENTS).optional(),
    enabled: wireBool().optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; keys: CompanyKeyRow[] }>(),
});

export const addCompanyKey = defineAction({
  name: 'addCompanyKey',
  summary:
    'Operator: adds a key entry (every field required, `company-key` exactly 16 bytes); err 14 when the key exists already. Effective at once for sign-in and `reg`. {id}.',
  params: actionParams({ ...entryFields, 'company-key': entryKeySchema }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<{ id: number }>(),
});

export const editCompanyKey = defineAction({
  name: 'editCompanyKey',
  summary:
    'Operator: changes a key entry; `company-key` replaces the key (absent: kept); err 12 for an unknown id, 14 when the new key belongs to another entry, 271 when nothing changes.',
  params: actionParams({ id: wireInt().min(1), ...entryFields, 'company-key': entryKeySchema.optional() }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});

export const setCompanyKeyEnabled = defineAction({
  name: 'setCompanyKeyEnabled',
  summary:
    'Operator: enables or disables a key entry; a disabled key is refused (err 15) by the next sign-in or `reg` on every server. err 12 for an unknown id.',
  params: actionParams({ id: wireInt().min(1), enabled: wireBool() }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});
