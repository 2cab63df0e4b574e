import { z } from 'zod';
import { BAUD_RATES, FIRMWARE_TYPES } from '../firmware.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { defineAction, result, UPLOAD_RULES } from './define.js';
import { FIRMWARE_TEXT_MAX } from './firmware-params.js';

/**
 * The firmware library (issue 13, library part; docs/firmware/contract.md, docs/firmware/library.md).
 * A firmware belongs to a manufacturer: manufacturers (1) upload, edit, delete, sign and pick
 * defaults; distributors (2, and their sub-administrators with `system_settings`/`firmware`) see
 * and download their manufacturer's; the operator (15) sees all; anyone else err 11. A missing or
 * another manufacturer's firmware answers 352 ("no firmware"), never its existence.
 * The vendor pages show no action names for the library; the names follow the vendor style.
 */

const firmwareType = () =>
  wireInt()
    .min(0)
    .max(FIRMWARE_TYPES.length - 1);
const baudRate = () =>
  z.union([z.literal(''), wireInt()]).transform((v, c) => {
    if (v === '') return null;
    if (!(BAUD_RATES as readonly number[]).includes(v)) {
      c.addIssue({ code: 'custom', message: 'baudRate' });
      return z.NEVER;
    }
    return v;
  });
/** 16 lower-case hex digits: a firmware's public id. */
const firmwareCode = () =>
  z
    .string()
    .trim()
    .regex(/^[0-9a-f]{16}$/);
/** The per-language notes, a JSON object locale → text (`{"en_US":"…","zh_CN":"…"}`). */
const i18nNotes = () =>
  z
    .string()
    .max(FIRMWARE_TEXT_MAX.i18n)
    .transform((s, c) => {
      if (s.trim() === '') return {} as Record<string, string>;
      try {
        const v: unknown = JSON.parse(s);
        if (v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'))
          return v as Record<string, string>;
      } catch {
        // falls through to the issue
      }
      c.addIssue({ code: 'custom', message: 'notes' });
      return z.NEVER;
    });

/** One firmware of the library on the wire. */
export interface FirmwareRow {
  /** The public id (`firmware` of the upgrade actions). */
  firmware: string;
  name: string;
  version: string;
  /** FIRMWARE_TYPES id. */
  type: number;
  baudRate: number | null;
  desc: string;
  upgradeMode: number;
  note: string;
  /** Per-language notes (locale → text). */
  notes: Record<string, string>;
  /** 0 firmware manager, 1 upgrade management. */
  origin: number;
  fileName: string;
  /** Bytes. */
  size: number;
  /** SHA-256 of the image, 64 lower-case hex digits. */
  sha256: string;
  /** True when the upload carried a signature that verified against one of the manufacturer's keys. */
  signed: boolean;
  /** The verifying key's fingerprint ('' when unsigned). */
  keyFingerprint: string;
  /** The verifying key has since been revoked: the image is no longer distributable. */
  keyRevoked: boolean;
  /** The owning manufacturer's account name. */
  vendor: string;
  /** yyyy-MM-dd HH:mm:ss (UTC). */
  uploadTime: string;
  /** The datalogger types this firmware is the default of. */
  defaultFor: string[];
}

export interface FirmwareKeyRow {
  id: number;
  name: string;
  /** Raw 32-byte Ed25519 public key, base64. */
  publicKey: string;
  fingerprint: string;
  /** yyyy-MM-dd HH:mm:ss (UTC). */
  createTime: string;
  /** '' while valid. */
  revokeTime: string;
}

export interface DefaultFirmwareRow {
  /** A datalogger type (`dataloggers.model`) of the manufacturer's fleet or with a default. */
  dataloggerType: string;
  /** How many of the manufacturer's dataloggers have this type. */
  dataloggers: number;
  /** The default firmware, or null. */
  firmware: FirmwareRow | null;
}

const READERS = [1, 2, 15] as const;
/** Manufacturers, and role-2 sub-administrators acting for one (the service checks whom they act for). */
const WRITERS = [1, 2] as const;

export const queryFirmwares = defineAction({
  name: 'queryFirmwares',
  summary:
    "The caller's manufacturer's firmware library (operator: every manufacturer's), newest first, paged on the server: `search` matches name, version, file name or description; `type` a FIRMWARE_TYPES id; `origin` 0/1 the manager or upgrade-management uploads (not `source`: every client call carries `source`, its client kind). {total,page,pagesize,firmware:[FirmwareRow]}.",
  params: actionParams({
    page: page(),
    pagesize: pageSize(100),
    search: z.string().trim().max(64).optional(),
    type: z.union([z.literal(''), firmwareType()]).optional(),
    origin: z.union([z.literal(''), wireInt().min(0).max(1)]).optional(),
  }),
  access: { auth: 'signed', roles: READERS, permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; firmware: FirmwareRow[] }>(),
});

export const uploadFirmware = defineAction({
  name: 'uploadFirmware',
  summary:
    'A manufacturer uploads a firmware (multipart `file`: .bin/.hex/.s19, 8 MB; 1 MB when `origin`=1, upgrade management): firmwareName and firmwareVersion required (7), type, baudRate, desc, upgradeMode, note, i18n (JSON locale → note), signature (base64 Ed25519 over the raw SHA-256; verified against the manufacturer\'s non-revoked keys, 6 when it does not verify; absent = stored unsigned, never distributed). Bad extension 6, too large 13. {firmware, sha256, size, signed, keyFingerprint}.',
  params: actionParams({
    firmwareName: z.string().trim().max(FIRMWARE_TEXT_MAX.name).default(''),
    firmwareVersion: z.string().trim().max(FIRMWARE_TEXT_MAX.version).default(''),
    type: firmwareType().default(0),
    baudRate: baudRate().optional(),
    desc: z.string().trim().max(FIRMWARE_TEXT_MAX.desc).default(''),
    upgradeMode: wireInt().min(0).max(9).default(0),
    note: z.string().trim().max(FIRMWARE_TEXT_MAX.note).default(''),
    i18n: i18nNotes().optional(),
    signature: z.string().trim().max(200).default(''),
    origin: z.union([z.literal(''), wireInt().min(0).max(1)]).default(0),
  }),
  access: { auth: 'signed', roles: WRITERS, permission: 'system_settings', button: 'firmware_upload' },
  mutates: true,
  upload: UPLOAD_RULES.firmware,
  result: result<{ firmware: string; sha256: string; size: number; signed: boolean; keyFingerprint: string }>(),
});

export const editFirmware = defineAction({
  name: 'editFirmware',
  summary:
    'A manufacturer changes the description, note, notes, upgrade mode, type, baud rate, name or version of one of its firmwares (absent = unchanged; the image and its signature never change). 352 no such firmware of the caller.',
  params: actionParams({
    firmware: firmwareCode(),
    firmwareName: z.string().trim().min(1).max(FIRMWARE_TEXT_MAX.name).optional(),
    firmwareVersion: z.string().trim().min(1).max(FIRMWARE_TEXT_MAX.version).optional(),
    type: firmwareType().optional(),
    baudRate: baudRate().optional(),
    desc: z.string().trim().max(FIRMWARE_TEXT_MAX.desc).optional(),
    upgradeMode: wireInt().min(0).max(9).optional(),
    note: z.string().trim().max(FIRMWARE_TEXT_MAX.note).optional(),
    i18n: i18nNotes().optional(),
  }),
  access: { auth: 'signed', roles: WRITERS, permission: 'system_settings', button: 'firmware_upload' },
  mutates: true,
  result: result<undefined>(),
});

export const delFirmware = defineAction({
  name: 'delFirmware',
  summary:
    'A manufacturer deletes one of its firmwares (the image is removed, the row kept for history). 352 no such firmware; 8 while a strategy that is not cancelled or expired uses it, or while it is a default firmware.',
  params: actionParams({ firmware: firmwareCode() }),
  access: { auth: 'signed', roles: WRITERS, permission: 'system_settings', button: 'firmware_upload' },
  mutates: true,
  result: result<undefined>(),
});

export const downloadFirmware = defineAction({
  name: 'downloadFirmware',
  summary:
    'A signed download address of a firmware image the caller sees, valid 5 minutes: {url, name, size, sha256, expire (epoch s)}. 352 no such firmware.',
  params: actionParams({ firmware: firmwareCode() }),
  access: { auth: 'signed', roles: READERS, permission: 'system_settings' },
  mutates: false,
  result: result<{ url: string; name: string; size: number; sha256: string; expire: number }>(),
});

export const queryDefaultFirmwares = defineAction({
  name: 'queryDefaultFirmwares',
  summary:
    "The default firmware per datalogger type of the caller's manufacturer (operator: of `vendor`, an account id): every type of its fleet and every type with a default. {types:[DefaultFirmwareRow]}.",
  params: actionParams({ vendor: wireInt().min(1).optional() }),
  access: { auth: 'signed', roles: READERS, permission: 'system_settings' },
  mutates: false,
  result: result<{ types: DefaultFirmwareRow[] }>(),
});

export const setDefaultFirmware = defineAction({
  name: 'setDefaultFirmware',
  summary:
    'A manufacturer sets (or, with an empty `firmware`, clears) the default firmware of one datalogger type. 352 no such firmware of the caller; 6 bad type.',
  params: actionParams({
    dataloggerType: z.string().trim().min(1).max(64),
    firmware: z.union([z.literal(''), firmwareCode()]).default(''),
  }),
  access: { auth: 'signed', roles: WRITERS, permission: 'system_settings', button: 'firmware_upload' },
  mutates: true,
  result: result<undefined>(),
});

export const queryFirmwareKeys = defineAction({
  name: 'queryFirmwareKeys',
  summary: "The manufacturer's firmware signing keys (public halves), newest first. {keys:[FirmwareKeyRow]}.",
  params: actionParams({}),
  access: { auth: 'signed', roles: WRITERS, permission: 'system_settings' },
  mutates: false,
  result: result<{ keys: FirmwareKeyRow[] }>(),
});

export const addFirmwareKey = defineAction({
  name: 'addFirmwareKey',
  summary:
    'A manufacturer registers an Ed25519 public key its firmware signatures are checked against: `publicKey` raw 32 bytes base64 or a PEM SubjectPublicKeyInfo. 6 not an Ed25519 public key; 14 the key is already registered. {id, fingerprint}.',
  params: actionParams({
    name: z.string().trim().max(64).default(''),
    publicKey: z.string().trim().min(1).max(1000),
  }),
  access: { auth: 'signed', roles: WRITERS, permission: 'system_settings', button: 'firmware_upload' },
  mutates: true,
  result: result<{ id: number; fingerprint: string }>(),
});

export const revokeFirmwareKey = defineAction({
  name: 'revokeFirmwareKey',
  summary:
    'A manufacturer revokes one of its signing keys: it verifies nothing new and the images it signed are no longer distributed. 12 no such key of the caller; 14 already revoked.',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: WRITERS, permission: 'system_settings', button: 'firmware_upload' },
  mutates: true,
  result: result<undefined>(),
});
