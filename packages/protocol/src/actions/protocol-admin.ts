import { z } from 'zod';
import { PATTERNS } from '../rules.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import { defineAction, result } from './define.js';
import {
  BINDING_SCOPES,
  COMM_METHODS,
  DEVCODE_CHANGE_REASON_MAX,
  TYPE_DESCRIPTION_MAX,
  TYPE_NAME_MAX,
  type BindingScope,
} from './protocol-admin-params.js';

/**
 * Issue 14, the operator's protocol pages (spec §5 "type code 1 letter"): typeCode (datalogger
 * type codes: letter → type name and communication method, applied at registration),
 * protocolBinding (which devcodes a datalogger type or PN range may report, enforced by ingestion)
 * and protocolChange (a device's devcode changed, with reason; its history keeps decoding with the
 * devcode in force at each sample's time). Operator only (role 15). Names follow the vendor style
 * (the vendor pages name none); docs/operator/protocol-admin.md.
 */

const upper = (re: RegExp) =>
  z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(re));
const pnPart = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{1,18}$/));

/** One datalogger type code on the wire. */
export interface CollectorTypeCodeRow {
  /** The letter (upper case). */
  code: string;
  name: string;
  commMethod: string;
  description: string;
  enabled: boolean;
  /** Dataloggers registered with this type code. */
  dataloggers: number;
  updatedBy: string;
  /** Epoch ms. */
  updatedAt: number;
}

export const queryCollectorTypeCodes = defineAction({
  name: 'queryCollectorTypeCodes',
  summary:
    'Operator: the datalogger type codes (1 letter → type name, communication method), paged; `search` matches the letter, name or communication method. {total,page,pagesize,codes:[CollectorTypeCodeRow]}.',
  params: actionParams({ search: z.string().trim().max(64).optional(), page: page(), pagesize: pageSize(100) }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; codes: CollectorTypeCodeRow[] }>(),
});

const typeFields = {
  name: z.string().trim().min(1).max(TYPE_NAME_MAX),
  commMethod: z.enum(COMM_METHODS),
  description: z.string().trim().max(TYPE_DESCRIPTION_MAX).default(''),
};

export const addCollectorTypeCode = defineAction({
  name: 'addCollectorTypeCode',
  summary:
    'Operator: adds a datalogger type code (1 letter, upper-cased). While any type code exists, a new PN whose type letter (after its manufacturer code) names no enabled type code is refused at registration (387), and a known one gives the datalogger its type and communication method. 14 when the letter exists.',
  params: actionParams({ code: upper(PATTERNS.TYPE_CODE), ...typeFields, enabled: wireBool().default(true) }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<{ code: string }>(),
});

export const editCollectorTypeCode = defineAction({
  name: 'editCollectorTypeCode',
  summary:
    'Operator: edits a type code (name, communication method, description, enabled; the letter is fixed). Registered dataloggers keep what they got. 387 unknown letter, 271 nothing changes.',
  params: actionParams({
    code: upper(PATTERNS.TYPE_CODE),
    name: typeFields.name.optional(),
    commMethod: typeFields.commMethod.optional(),
    description: z.string().trim().max(TYPE_DESCRIPTION_MAX).optional(),
    enabled: wireBool().optional(),
  }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<undefined>(),
});

/** One devcode binding on the wire. */
export interface ProtocolBindingRow {
  id: number;
  devcode: number;
  /** The definition's name ('' when the devcode has none). */
  devcodeName: string;
  scope: BindingScope;
  /** scope `type`: the type code letter. */
  typeCode: string;
  /** scope `prefix`: the PN prefix; scope `range`: the first PN. */
  pnFrom: string;
  /** scope `range`: the last PN (inclusive). */
  pnTo: string;
  note: string;
  enabled: boolean;
  /** Dataloggers the binding's scope covers today. */
  dataloggers: number;
  updatedBy: string;
  updatedAt: number;
}

export const queryProtocolBindings = defineAction({
  name: 'queryProtocolBindings',
  summary:
    'Operator: devcode bindings (devcode → datalogger type code, PN prefix or PN range), paged; `search` matches the type code, PN bounds or note; `devcode` filters. {total,page,pagesize,bindings:[ProtocolBindingRow]}.',
  params: actionParams({
    search: z.string().trim().max(64).optional(),
    devcode: wireInt().min(0).optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; bindings: ProtocolBindingRow[] }>(),
});

export const addProtocolBinding = defineAction({
  name: 'addProtocolBinding',
  summary:
    'Operator: binds a devcode to a datalogger type code (`typeCode`), a PN prefix (`pnFrom`) or a PN range (`pnFrom`–`pnTo`). A datalogger covered by any enabled binding may report only the devcodes bound to it; ingestion refuses other devcodes (reason unbound_devcode) within seconds on every instance. 353 unknown devcode, 7 missing bound, 6 range reversed, 14 same binding exists. {id}.',
  params: actionParams({
    devcode: wireInt().min(0),
    scope: z.enum(BINDING_SCOPES),
    typeCode: upper(PATTERNS.TYPE_CODE).optional(),
    pnFrom: pnPart.optional(),
    pnTo: pnPart.optional(),
    note: z.string().trim().max(TYPE_DESCRIPTION_MAX).default(''),
  }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<{ id: number }>(),
});

export const setProtocolBindingEnabled = defineAction({
  name: 'setProtocolBindingEnabled',
  summary: 'Operator: enables or disables a devcode binding (a disabled binding restricts nothing). 12 unknown id.',
  params: actionParams({ id: wireInt().min(1), enabled: wireBool() }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const deleteProtocolBinding = defineAction({
  name: 'deleteProtocolBinding',
  summary: 'Operator: deletes a devcode binding. 12 unknown id.',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<undefined>(),
});

/** A device found for a devcode change. */
export interface ProtocolDeviceRow {
  id: number;
  pn: string;
  sn: string;
  devaddr: number;
  devcode: number;
  devcodeName: string;
  alias: string;
  /** Epoch ms of the last sample, 0 when none. */
  lastSampleAt: number;
  /** Earlier devcode changes of this device. */
  changes: number;
}

export const queryProtocolDevices = defineAction({
  name: 'queryProtocolDevices',
  summary:
    "Operator: the devices of a datalogger PN, narrowed by SN (exact) or devaddr, to change one's devcode. 257 unknown PN. {devices:[ProtocolDeviceRow]} (at most 50).",
  params: actionParams({
    pn: z.string().trim().min(1).max(32),
    sn: z.string().trim().max(64).optional(),
    devaddr: wireInt().min(0).max(255).optional(),
  }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: false,
  result: result<{ devices: ProtocolDeviceRow[] }>(),
});

export const changeDeviceProtocol = defineAction({
  name: 'changeDeviceProtocol',
  summary:
    "Operator: changes a device's devcode, with a reason (audited). Samples before the change keep decoding with the old devcode's definition (devcode history from that time); day figures and alarms are unchanged; the live values restart with the next frame. 258 unknown device, 353 unknown devcode, 271 same devcode, 272 the PN already has that device under the new devcode. {id}.",
  params: actionParams({
    deviceId: wireInt().min(1),
    devcode: wireInt().min(0),
    reason: z.string().trim().min(1).max(DEVCODE_CHANGE_REASON_MAX),
  }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<{ id: number }>(),
});

/** One past devcode change. */
export interface ProtocolChangeRow {
  id: number;
  deviceId: number;
  pn: string;
  sn: string;
  devaddr: number;
  oldDevcode: number;
  newDevcode: number;
  reason: string;
  changedBy: string;
  /** Epoch ms: when the operator changed it. */
  changedAt: number;
  /** Epoch ms (sample time): samples from this time on decode with `newDevcode`, earlier ones with `oldDevcode`. */
  fromTs: number;
}

export const queryProtocolChanges = defineAction({
  name: 'queryProtocolChanges',
  summary:
    'Operator: past devcode changes, newest first, paged; `search` matches PN, SN or the operator. {total,page,pagesize,changes:[ProtocolChangeRow]}.',
  params: actionParams({ search: z.string().trim().max(64).optional(), page: page(), pagesize: pageSize(100) }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; changes: ProtocolChangeRow[] }>(),
});
