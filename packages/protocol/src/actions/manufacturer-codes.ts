import { z } from 'zod';
import { PATTERNS } from '../rules.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import { defineAction, result } from './define.js';

/**
 * Issue 14, operator back office, factoryCode (spec §5 "Manufacturer code 2-3 characters; type
 * code 1 letter"): which PNs belong to which manufacturer. A rule is a manufacturer code plus a
 * type code; a PN that starts with that prefix (`code` + `typeCode`, e.g. `QX` + `A` → `QXA…`) is
 * registered under the rule's manufacturer: only that manufacturer's tree may add it to a stock
 * (anyone else: 273). Operator only (role 15). Names follow the vendor style (the vendor pages name
 * none); docs/operator/manufacturer-codes.md.
 */

/** One PN rule on the wire. */
export interface ManufacturerCodeRow {
  id: number;
  /** The manufacturer (role 1) account. */
  vendorUid: number;
  vendorUsr: string;
  code: string;
  typeCode: string;
  /** `code` + `typeCode`: the PN prefix. */
  prefix: string;
  enabled: boolean;
  updatedBy: string;
  /** Epoch ms. */
  updatedAt: number;
}

export const queryManufacturerCodes = defineAction({
  name: 'queryManufacturerCodes',
  summary:
    "Operator: the PN rules (manufacturer code + type code → manufacturer), paged on the server; `search` matches the prefix or the manufacturer's account name; `vendorUid` filters. {total,page,pagesize,codes:[ManufacturerCodeRow]}.",
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    vendorUid: wireInt().min(1).optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; codes: ManufacturerCodeRow[] }>(),
});

export const addManufacturerCode = defineAction({
  name: 'addManufacturerCode',
  summary:
    'Operator: adds a PN rule for a manufacturer: `code` 2-3 letters or digits, `typeCode` 1 letter (upper-cased); new PNs with that prefix register under it. 261 when `vendorUid` is no manufacturer, 14 when the prefix exists or the code belongs to another manufacturer. {id, prefix}.',
  params: actionParams({
    vendorUid: wireInt().min(1),
    code: z
      .string()
      .trim()
      .transform((s) => s.toUpperCase())
      .pipe(z.string().regex(PATTERNS.MANUFACTURER_CODE)),
    typeCode: z
      .string()
      .trim()
      .transform((s) => s.toUpperCase())
      .pipe(z.string().regex(PATTERNS.TYPE_CODE)),
    enabled: wireBool().default(true),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<{ id: number; prefix: string }>(),
});

export const setManufacturerCodeEnabled = defineAction({
  name: 'setManufacturerCodeEnabled',
  summary:
    'Operator: enables or disables a PN rule (a disabled rule maps no PN; dataloggers already registered keep their manufacturer). 12 for an unknown id.',
  params: actionParams({ id: wireInt().min(1), enabled: wireBool() }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});

export const editManufacturerCode = defineAction({
  name: 'editManufacturerCode',
  summary:
    "Operator: edits a PN rule's `typeCode` (1 letter), `enabled` and owner manufacturer `vendorUid`; omitted = unchanged. The rule's code stays; it may change owner only with every rule of its code (14 when another rule of the code stays with another manufacturer, or the code is another manufacturer's own code; 14 when the new prefix exists). Applies to the next registration; registered dataloggers keep their manufacturer. 12 unknown id, 261 not a manufacturer.",
  params: actionParams({
    id: wireInt().min(1),
    vendorUid: wireInt().min(1).optional(),
    typeCode: z
      .string()
      .trim()
      .transform((s) => s.toUpperCase())
      .pipe(z.string().regex(PATTERNS.TYPE_CODE))
      .optional(),
    enabled: wireBool().optional(),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});

export const deleteManufacturerCode = defineAction({
  name: 'deleteManufacturerCode',
  summary:
    'Operator: deletes a PN rule (audited with the deleted row); new PNs with its prefix follow the other rules or none. 12 unknown id.',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});
