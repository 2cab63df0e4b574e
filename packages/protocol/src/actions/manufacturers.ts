import { z } from 'zod';
import { PATTERNS } from '../rules.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import { defineAction, result } from './define.js';

/**
 * Issue 14, operator back office, factoryAccount (spec §3 "Manufacturer: id, name, code, account,
 * enabled, visible devcode, ecoin", §5 "Manufacturer code 2-3 characters", §6): the manufacturers
 * are the role-1 accounts under the operator. Operator only (role 15) but `queryVisibleDevcodes`,
 * which every signed-in account (device_manag for role-2 permission lists) asks for its area. Names follow the vendor style (the
 * vendor pages name none); docs/operator/manufacturers.md.
 */

/** One manufacturer on the wire. */
export interface ManufacturerRow {
  /** The manufacturer account's id. */
  uid: number;
  /** Its account (sign-in name). */
  usr: string;
  name: string;
  /** Manufacturer code, 2-3 upper-case letters or digits (unique). */
  code: string;
  enabled: boolean;
  /** The devcodes its area may see; empty = every devcode. */
  devcodes: number[];
  /** Ecoin balance (integer, never negative). */
  ecoin: number;
  /** Dataloggers registered under it. */
  dataloggers: number;
  /** Flag: its dataloggers that report a device of a devcode outside `devcodes` (0 when all are visible). */
  outsideDataloggers: number;
  /** Its PN rules (factoryCode). */
  rules: number;
  /** Epoch ms. */
  createdAt: number;
}

/** One ecoin adjustment. */
export interface ManufacturerEcoinRow {
  id: number;
  delta: number;
  /** The balance after it. */
  balance: number;
  reason: string;
  usr: string;
  /** Epoch ms. */
  at: number;
}

const OPERATOR = { auth: 'signed', roles: [15], permission: 'system_settings' } as const;

/** Manufacturer code: 2-3 letters or digits, upper-cased. */
const manufacturerCodeParam = () =>
  z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(PATTERNS.MANUFACTURER_CODE));

/** Manufacturer name: 2-64 characters. */
const nameParam = () => z.string().trim().min(2).max(64);

/** Visible devcodes: a comma list of devcodes; empty = every devcode. */
const devcodeListParam = () =>
  z
    .string()
    .max(4096)
    .regex(/^(\d{1,5}(,\d{1,5})*)?$/)
    .transform((s) => (s === '' ? [] : [...new Set(s.split(',').map(Number))].sort((a, b) => a - b)));

export const queryManufacturers = defineAction({
  name: 'queryManufacturers',
  summary:
    'Operator: the manufacturers (role-1 accounts), paged on the server; `search` matches the account, the name or the code; `enabled` filters. {total,page,pagesize,manufacturers:[ManufacturerRow]} by code.',
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    enabled: wireBool().optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; manufacturers: ManufacturerRow[] }>(),
});

export const addManufacturer = defineAction({
  name: 'addManufacturer',
  summary:
    'Operator: creates a manufacturer: a role-1 account `usr` under the operator (password as addDist: `pwd`/`pwdtext` RC4 with the session secret) with `name`, `code` (2-3, unique: 14 when another manufacturer or PN rule holds it) and visible `devcodes` (comma list, empty = all; 353 for an unknown devcode). 24 duplicate account. {uid}.',
  params: actionParams({
    usr: z.string().max(64),
    pwd: z.string().regex(/^[0-9a-fA-F]{2,256}$/),
    pwdtext: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2}){1,128}$/)
      .optional(),
    name: nameParam(),
    code: manufacturerCodeParam(),
    devcodes: devcodeListParam().optional(),
    email: z.string().max(64).optional(),
    mobile: z.string().max(32).optional(),
  }),
  access: OPERATOR,
  mutates: true,
  result: result<{ uid: number }>(),
});

export const editManufacturer = defineAction({
  name: 'editManufacturer',
  summary:
    "Operator: edits a manufacturer's `name`, `code` (14 when taken; 14 `order` while an open datalogger order names the old code) and visible `devcodes` (empty = all); omitted = unchanged. 261 when `uid` is no manufacturer.",
  params: actionParams({
    uid: wireInt().min(1),
    name: nameParam().optional(),
    code: manufacturerCodeParam().optional(),
    devcodes: devcodeListParam().optional(),
  }),
  access: OPERATOR,
  mutates: true,
  result: result<undefined>(),
});

export const setManufacturerEnabled = defineAction({
  name: 'setManufacturerEnabled',
  summary:
    'Operator: enables or disables a manufacturer account (as enableUsrEs: a disabled account cannot sign in and its sessions end at once; its subordinate accounts are not touched). 261 when `uid` is no manufacturer.',
  params: actionParams({ uid: wireInt().min(1), enabled: wireBool() }),
  access: OPERATOR,
  mutates: true,
  result: result<undefined>(),
});

export const adjustManufacturerEcoin = defineAction({
  name: 'adjustManufacturerEcoin',
  summary:
    "Operator: adds `delta` (a non-zero integer, negative to deduct) to a manufacturer's ecoin with a `reason` (2-200); 13 when the balance would go below 0. Recorded in the ecoin log and the audit. {ecoin} (the new balance).",
  params: actionParams({
    uid: wireInt().min(1),
    delta: wireInt()
      .min(-1_000_000_000)
      .max(1_000_000_000)
      .refine((n) => n !== 0),
    reason: z.string().trim().min(2).max(200),
  }),
  access: OPERATOR,
  mutates: true,
  result: result<{ ecoin: number }>(),
});

export const queryManufacturerEcoinLog = defineAction({
  name: 'queryManufacturerEcoinLog',
  summary:
    "Operator: a manufacturer's ecoin adjustments, newest first, paged. {total,page,pagesize,rows:[ManufacturerEcoinRow]}.",
  params: actionParams({ uid: wireInt().min(1), page: page(), pagesize: pageSize(50) }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; rows: ManufacturerEcoinRow[] }>(),
});

export const queryVisibleDevcodes = defineAction({
  name: 'queryVisibleDevcodes',
  summary:
    "The devcodes the caller's manufacturer lets its area see (the manufacturer above the caller, or the caller itself): {all:true} when unrestricted (also the operator), else {all:false, devcodes}. Protocol pickers offer only these; the server refuses others (353).",
  params: actionParams({}),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ all: boolean; devcodes: number[] }>(),
});
