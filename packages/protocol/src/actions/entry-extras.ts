/**
 * Entry-page extras (issue 12): account retrieval by a serial number, experience (invitation)
 * codes with their read-only demo sign-in and the operator's code management, and QR sign-in
 * confirmed from a signed-in browser (spec §2 "Entry page", §4 "Entry page flows", §5, §7, §8).
 */
import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import type { AuthDat } from './account.js';
import { LIMITS, PATTERNS } from '../rules.js';
import { INV_CODE_PATTERN, QR_KEY_PATTERN } from './entry-extras-params.js';

/** Account lookup answer: masked account, e-mail and phone ('' when none). */
export interface RetrieveUsrDat {
  usr: string;
  email: string;
  mobile: string;
}

export const retrieveUsrByPnEs = defineAction({
  name: 'retrieveUsrByPnEs',
  summary:
    'Forgot account: the masked account, e-mail and phone of the owner of the device or datalogger with serial `pn` (one capital letter + digits, ≤ 24). 257 unknown or unowned serial, 13 too many lookups from this address.',
  params: actionParams({
    pn: z.string().max(LIMITS.SERIAL_MAX).regex(PATTERNS.SERIAL),
  }),
  access: { auth: 'public', permission: null },
  mutates: false,
  result: result<RetrieveUsrDat>(),
});

/** The demo sign-in of an experience code: the login `dat` plus the code's validity period. */
export interface InvCodeLoginDat extends AuthDat {
  /** Always true: a demo session is read-only (every state-changing action answers 11). */
  demo: true;
  /** Validity of the code, epoch ms. */
  validFrom: number;
  validTo: number;
}

export const validateInvCode = defineAction({
  name: 'validateInvCode',
  summary:
    'Experience code sign-in: a read-only demo session of the showcase account (simulated plants, figures brought up to now), with the validity period. 11 unknown, expired or not yet valid code, or an old code that names another account.',
  params: actionParams({
    invCode: z.string().regex(INV_CODE_PATTERN),
    sysType: z.string().max(4).optional(),
  }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<InvCodeLoginDat>(),
});

export const addInvCodeApply = defineAction({
  name: 'addInvCodeApply',
  summary:
    'Apply for an experience code (entry page): applyName 2–32, phoneNumber 6–32, email, reason required; companyName, companyAddress optional; status "0", sysType "1", createTime "yyyy-MM-dd hh:mm:ss". Kept for the operator.',
  params: actionParams({
    applyName: z.string().min(LIMITS.NAME_MIN).max(LIMITS.NAME_MAX),
    companyName: z.string().max(128).optional(),
    companyAddress: z.string().max(256).optional(),
    phoneNumber: z.string().min(LIMITS.PHONE_MIN).max(LIMITS.PHONE_MAX),
    email: z.string().max(LIMITS.EMAIL_MAX).regex(PATTERNS.EMAIL),
    reason: z.string().min(1).max(1000),
    status: z.literal('0'),
    sysType: z.literal('1'),
    createTime: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
  }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<{ id: number }>(),
});

/** One experience code as the operator lists it. */
export interface InvCodeRow {
  id: number;
  code: string;
  /** The account its demo sessions open (read-only). */
  usr: string;
  uid: number;
  validFrom: number;
  validTo: number;
  /** 'valid' | 'pending' (not yet valid) | 'expired'. */
  state: 'valid' | 'pending' | 'expired';
  uses: number;
  note: string;
  createdAt: number;
}

export const addInvCode = defineAction({
  name: 'addInvCode',
  summary:
    'Operator: issue an experience code that opens the showcase (the read-only demo account `demo-showcase` with simulated plants, created on demand, isolated from every tenant) from `validFrom` (epoch ms, default now) for `days` days (1–365). `usr`, if given, must name the showcase: 523 for any other account (codes never open a real account).',
  params: actionParams({
    usr: z.string().min(1).max(LIMITS.NAME_MAX).optional(),
    days: wireInt().min(1).max(365),
    validFrom: wireInt().min(0).optional(),
    note: z.string().max(256).optional(),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<InvCodeRow>(),
});

export const queryInvCodes = defineAction({
  name: 'queryInvCodes',
  summary: 'Operator: the experience codes, newest first. {total,page,pagesize,code:[…]}.',
  params: actionParams({ page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; code: InvCodeRow[] }>(),
});

export const expireInvCode = defineAction({
  name: 'expireInvCode',
  summary: 'Operator: expire experience code `id` now (its demo sessions end too). 12 unknown code, 271 already expired.',
  params: actionParams({ id: wireInt() }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});

/** One application for an experience code. */
export interface InvCodeApplyRow {
  id: number;
  applyName: string;
  companyName: string;
  companyAddress: string;
  phoneNumber: string;
  email: string;
  reason: string;
  status: string;
  sysType: string;
  createTime: string;
  /** Server time of receipt, epoch ms. */
  receivedAt: number;
}

export const queryInvCodeApplies = defineAction({
  name: 'queryInvCodeApplies',
  summary: 'Operator: the applications for experience codes, newest first. {total,page,pagesize,apply:[…]}.',
  params: actionParams({ page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; apply: InvCodeApplyRow[] }>(),
});

export const qrLogin = defineAction({
  name: 'qrLogin',
  summary:
    'QR sign-in poll (every 3 s) with the browser-made 32-character `key`: 1033 waiting (the first poll registers the key), 1040 scanned, 0 the confirmed account\'s session (once), 1041 expired or used key, 6 bad key.',
  params: actionParams({
    key: z.string().regex(QR_KEY_PATTERN),
    plat: z.string().max(32).optional(),
    'company-key': z.string().min(1).max(64).optional(),
  }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<AuthDat>(),
});

export const qrScan = defineAction({
  name: 'qrScan',
  summary:
    'QR sign-in: the signed-in confirm page opened key `key` (the polling browser then sees 1040). 1041 unknown, expired or used key.',
  params: actionParams({ key: z.string().regex(QR_KEY_PATTERN) }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const qrConfirm = defineAction({
  name: 'qrConfirm',
  summary:
    'QR sign-in: confirm (`confirm=1`) or refuse (`confirm=0`) key `key` for the calling account; the polling browser then gets a session of this account (0) or 1041. 1041 unknown, expired, used or not scanned by this account.',
  params: actionParams({ key: z.string().regex(QR_KEY_PATTERN), confirm: z.enum(['0', '1']) }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});
