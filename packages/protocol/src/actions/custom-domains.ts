import { z } from 'zod';
import { LOCALES, type Locale } from '../locales.js';
import { HOST_NAME_RE } from './branding-params.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import {
  CUSTOM_DOMAIN_IMAGE_EXTENSIONS,
  CUSTOM_DOMAIN_IMAGE_KINDS,
  CUSTOM_DOMAIN_IMAGE_MAX_BYTES,
  CUSTOM_DOMAIN_TEXT_MAX,
  type CustomDomainImageType,
} from './custom-domains-params.js';
import { CTRL_PWD_MAX } from './device-ops-params.js';
import { defineAction, result } from './define.js';

/**
 * Issue 14, operator back office: per-manufacturer white-labelling (custom domains: host name →
 * title, languages, demo access, QR sign-in, logo, background, contact — what the entry page's
 * domain check answers) and passwordMaintenance (the device-control password of each
 * manufacturer's domain, spec §3, stored hashed). Operator only (role 15). The vendor pages name
 * no action for these pages; the names follow the vendor style (docs/operator/domains.md).
 */

/** One stored picture of a domain (never its bytes: `url` serves them). */
export interface CustomDomainImage {
  type: CustomDomainImageType;
  size: number;
  /** `/branding/<host>/<kind>.<ext>?v=<digest>`: the URL the entry page shows. */
  url: string;
}

/** One custom domain on the wire. */
export interface CustomDomainRow {
  id: number;
  host: string;
  /** The manufacturer account (role 1) the domain brands; 0 = none (a seeded host). */
  vendorId: number;
  vendorName: string;
  vendorCode: string;
  title: string;
  /** Locales the picker offers ([] = all 11). */
  languages: Locale[];
  forceLanguage: Locale | '';
  demo: boolean;
  qrLogin: boolean;
  logo: CustomDomainImage | null;
  background: CustomDomainImage | null;
  phoneNum: string;
  email: string;
  wechat: string;
  englishName: string;
  enabled: boolean;
  /** True for a host created from the branding file at start. */
  seeded: boolean;
  createdAt: number;
  updatedAt: number;
  /** Account name of the last operator who changed it ('' = the start-up seed). */
  updatedBy: string;
}

/** One manufacturer of the passwordMaintenance page. */
export interface VendorCtrlPasswordRow {
  vendorId: number;
  usr: string;
  vendorCode: string;
  name: string;
  /** The manufacturer's custom domains (host names). */
  domains: string[];
  set: boolean;
  /** Epoch ms of the last set (0 when none is set). */
  setAt: number;
  /** Account name of who set it ('' when none is set or the account is gone). */
  setBy: string;
}

const locale = z.enum(LOCALES as unknown as [Locale, ...Locale[]]);
const text = (max: number) => z.string().trim().max(max).default('');
/** `languages`: comma-separated locales ('' = all). */
const localeList = z
  .string()
  .trim()
  .max(200)
  .default('')
  .transform((s) => (s === '' ? [] : [...new Set(s.split(',').map((x) => x.trim()))]))
  .pipe(z.array(locale));

/** The fields of a custom domain (the pictures are uploaded apart). */
const domainFields = {
  host: z.string().trim().toLowerCase().max(CUSTOM_DOMAIN_TEXT_MAX.host).regex(HOST_NAME_RE),
  vendor: wireInt().min(1),
  title: text(CUSTOM_DOMAIN_TEXT_MAX.title),
  languages: localeList,
  forceLanguage: z.union([z.literal(''), locale]).default(''),
  demo: wireBool().default(true),
  qrLogin: wireBool().default(true),
  phoneNum: text(CUSTOM_DOMAIN_TEXT_MAX.phone),
  email: z.union([z.literal(''), z.email().max(CUSTOM_DOMAIN_TEXT_MAX.email)]).default(''),
  wechat: text(CUSTOM_DOMAIN_TEXT_MAX.wechat),
  englishName: text(CUSTOM_DOMAIN_TEXT_MAX.name),
  enabled: wireBool().default(true),
};

const ACCESS = { auth: 'signed', roles: [15], permission: 'system_settings' } as const;

export const queryCustomDomainList = defineAction({
  name: 'queryCustomDomainList',
  summary:
    'Operator: the custom domains, newest first, paged on the server; `search` matches host, title, contact or the manufacturer (account, code); `vendor` and `enabled` (0/1) filter. {total,page,pagesize,domains:[CustomDomainRow]}.',
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    vendor: wireInt().min(1).optional(),
    enabled: wireBool().optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: ACCESS,
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; domains: CustomDomainRow[] }>(),
});

export const addCustomDomain = defineAction({
  name: 'addCustomDomain',
  summary:
    'Operator: adds a custom domain for a manufacturer (`vendor`, role 1, else 261); `forceLanguage` must be one of `languages` (6); err 14 when the host exists. Effective at once on every server. {id}.',
  params: actionParams(domainFields),
  access: ACCESS,
  mutates: true,
  result: result<{ id: number }>(),
});

export const editCustomDomain = defineAction({
  name: 'editCustomDomain',
  summary:
    'Operator: changes a custom domain (every field; pictures apart); err 12 for an unknown id, 14 when the new host belongs to another domain, 271 when nothing changes.',
  params: actionParams({ id: wireInt().min(1), ...domainFields }),
  access: ACCESS,
  mutates: true,
  result: result<undefined>(),
});

export const setCustomDomainEnabled = defineAction({
  name: 'setCustomDomainEnabled',
  summary:
    "Operator: enables or disables a custom domain; a disabled host shows the default look on the entry page's next call. err 12 for an unknown id.",
  params: actionParams({ id: wireInt().min(1), enabled: wireBool() }),
  access: ACCESS,
  mutates: true,
  result: result<undefined>(),
});

export const delCustomDomain = defineAction({
  name: 'delCustomDomain',
  summary:
    'Operator: deletes a custom domain and its pictures; the host shows the default look at once. err 12 for an unknown id.',
  params: actionParams({ id: wireInt().min(1) }),
  access: ACCESS,
  mutates: true,
  result: result<undefined>(),
});

export const uploadCustomDomainImage = defineAction({
  name: 'uploadCustomDomainImage',
  summary:
    'Operator: stores the logo or background of a custom domain (multipart `file`, png/jpg/webp/svg ≤ 1 MB, the type checked by its bytes; an svg with scripts, event handlers, external references or entities is refused, err 6). {url, type, size}.',
  params: actionParams({ id: wireInt().min(1), kind: z.enum(CUSTOM_DOMAIN_IMAGE_KINDS) }),
  access: ACCESS,
  mutates: true,
  upload: { field: 'file', maxBytes: CUSTOM_DOMAIN_IMAGE_MAX_BYTES, extensions: CUSTOM_DOMAIN_IMAGE_EXTENSIONS },
  result: result<CustomDomainImage>(),
});

export const delCustomDomainImage = defineAction({
  name: 'delCustomDomainImage',
  summary: 'Operator: removes the logo or background of a custom domain; 12 for an unknown id, 271 when there is none.',
  params: actionParams({ id: wireInt().min(1), kind: z.enum(CUSTOM_DOMAIN_IMAGE_KINDS) }),
  access: ACCESS,
  mutates: true,
  result: result<undefined>(),
});

export const queryVendorCtrlPwdList = defineAction({
  name: 'queryVendorCtrlPwdList',
  summary:
    'Operator (passwordMaintenance): the manufacturers with their custom domains and whether their device-control password is set, when and by whom; `search` matches account, code or a domain host; `set` (0/1) filters. Never a password or hash. {total,page,pagesize,vendors:[VendorCtrlPasswordRow]}.',
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    set: wireBool().optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: ACCESS,
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; vendors: VendorCtrlPasswordRow[] }>(),
});

export const setVendorCtrlPwd = defineAction({
  name: 'setVendorCtrlPwd',
  summary:
    "Operator (passwordMaintenance): sets or replaces a manufacturer's device-control password, entered twice (`pwd`, `confirmPwd`; 6–32 characters without white space, else 17; different, 6); stored as a scrypt hash, effective at once for ctrlDevice and sendCmdToDevice. 261 when `vendor` is no manufacturer.",
  params: actionParams({
    vendor: wireInt().min(1),
    pwd: z.string().min(1).max(CTRL_PWD_MAX),
    confirmPwd: z.string().max(CTRL_PWD_MAX),
  }),
  access: ACCESS,
  mutates: true,
  result: result<undefined>(),
});

export const clearVendorCtrlPwd = defineAction({
  name: 'clearVendorCtrlPwd',
  summary:
    "Operator (passwordMaintenance): clears a manufacturer's device-control password (device control then needs none); 271 when none is set, 261 when `vendor` is no manufacturer.",
  params: actionParams({ vendor: wireInt().min(1) }),
  access: ACCESS,
  mutates: true,
  result: result<undefined>(),
});
