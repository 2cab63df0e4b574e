import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams } from './common.js';
import type { AuthDat } from './account.js';

export type { CodePurpose } from './selfservice-params.js';

/**
 * Self-service actions of the entry page and the personal page (issue 12, spec §4 "Entry page
 * flows", §5, §7): verification codes, signup, password retrieval, bind and unbind of phone and
 * email. Public ones (no session) are rate limited per address and per IP by the server.
 *
 * Passwords travel as in the vendor's forms (spec §7 "a stream-cipher of the password digest keyed
 * by the user digest or the contact"): `pwd` = hex(RC4(key = sha1hex(usr), sha1hex(password))),
 * plus the Sunwatch `pwdtext` = hex(RC4(key = sha1hex(usr), password)) so that the server applies
 * the §5 rules itself (`encodeSelfServicePassword`).
 */

const digits6 = z.string().regex(/^\d{6}$/);
const hexPwd = () => z.string().regex(/^(?:[0-9a-fA-F]{2}){1,128}$/);
/** 0 phone, 1 email; the reset's `00` / `01` forms are accepted too. */
const channel = z.enum(['0', '1', '00', '01']);
const contact = {
  mobile: z.string().max(32).optional(),
  email: z.string().max(64).optional(),
};

export const getPictureCode = defineAction({
  name: 'getPictureCode',
  summary: 'A fresh picture code for password retrieval: {key, img} (img is an SVG data URL; 4 characters, digits and capitals).',
  params: actionParams({}),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<{ key: string; img: string }>(),
});

export const sendSmsCodeMobile = defineAction({
  name: 'sendSmsCodeMobile',
  summary:
    'Signup: send a 6-digit code to `mobile` (channel 0, mainland pattern, valid 1 min) or `email` (channel 1, valid 5 min), in the language of `i18n`. 24/26 when bound to an account, 524 too frequent, 525 already sent.',
  params: actionParams({ ...contact, msgType: z.string().max(4).optional(), channel }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const sendSmsCode = defineAction({
  name: 'sendSmsCode',
  summary:
    'Password reset: with only usr/msgType/channel (+ picture code `vkey`/`vcode`) answers 515 when the account exists and has that channel bound (514 when not, 261 unknown); with `mobile`/`email` sends the code when it is the bound one (515 otherwise).',
  params: actionParams({
    usr: z.string().min(1).max(64),
    msgType: z.string().max(4).optional(),
    channel,
    ...contact,
    webName: z.string().max(64).optional(),
    vkey: z.string().max(64).optional(),
    vcode: z.string().max(8).optional(),
  }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const confirmSmsCode = defineAction({
  name: 'confirmSmsCode',
  summary: 'Password reset step 1: checks the code sent to the account (512 mismatch, 513 expired or too many attempts).',
  params: actionParams({ usr: z.string().min(1).max(64), msgType: z.string().max(4).optional(), smsCode: digits6 }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const smsCodeUpdatePassword = defineAction({
  name: 'smsCodeUpdatePassword',
  summary: 'Password reset: new password with the confirmed code (single use); every session of the account is revoked.',
  params: actionParams({
    usr: z.string().min(1).max(64),
    msgType: z.string().max(4).optional(),
    channel,
    smsCode: digits6,
    pwd: hexPwd(),
    pwdtext: hexPwd().optional(),
    ...contact,
    webName: z.string().max(64).optional(),
  }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<undefined>(),
});

const signupParams = {
  usr: z.string().min(1).max(64),
  pwd: hexPwd(),
  pwdtext: hexPwd().optional(),
  code: digits6,
  msgType: z.string().max(4).optional(),
  'company-key': z.string().min(1).max(64),
  /** Sunwatch: the datalogger PN the default plant is created from. */
  sn: z.string().min(1).max(32),
  /** Sunwatch: country/region (ISO 3166 alpha-2). */
  country: z.string().min(2).max(2),
};

export const regBindMobileUsually = defineAction({
  name: 'regBindMobileUsually',
  summary: 'Signup by phone: a plant owner under the datalogger\'s distributor, its default plant named after the PN with the datalogger bound.',
  params: actionParams({ ...signupParams, mobile: z.string().min(1).max(32) }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<{ uid: number; usr: string }>(),
});

export const regBindMailboxUsually = defineAction({
  name: 'regBindMailboxUsually',
  summary: 'Signup by email (channel 1): as regBindMobileUsually with the email code.',
  params: actionParams({ ...signupParams, email: z.string().min(1).max(64), channel: z.string().max(2).optional() }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<{ uid: number; usr: string }>(),
});

export const sendBindCode = defineAction({
  name: 'sendBindCode',
  summary:
    'Personal page: a code to bind `mobile` / `email` (purpose bind, to the new address; 18/26 when another account has it) or to unbind (purpose unbind, to the bound address; 514 when none).',
  params: actionParams({ purpose: z.enum(['bind', 'unbind']), channel: z.enum(['0', '1']), ...contact }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const bindMobile = defineAction({
  name: 'bindMobile',
  summary: 'Binds the phone the bind code was sent to.',
  params: actionParams({ mobile: z.string().min(1).max(32), smsCode: digits6 }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const bindEmail = defineAction({
  name: 'bindEmail',
  summary: 'Binds the email the bind code was sent to.',
  params: actionParams({ email: z.string().min(1).max(64), smsCode: digits6 }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const unbindMobile = defineAction({
  name: 'unbindMobile',
  summary: 'Removes the phone binding (code sent to it); recovery through it is gone.',
  params: actionParams({ smsCode: digits6 }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const unbindEmail = defineAction({
  name: 'unbindEmail',
  summary: 'Removes the email binding (code sent to it); recovery through it is gone.',
  params: actionParams({ smsCode: digits6 }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

/**
 * The vendor's `reg` (vendor-actions.md §3, SM:ch2/reg): a plant owner registered with an
 * unregistered datalogger PN, no session and no verification code. `pwd` = hex(RC4(key =
 * sha1hex(sn), sha1hex(password))); the call is signed as sha1(salt + pwd + tail) (tail from
 * `&action=`, wire-protocol.md §4), so it is a sign-in kind of call. Sunwatch also reads `pwdtext`
 * = hex(RC4(key = sha1hex(sn), password)) to apply the password rules (required under the strict
 * password policy). The answer is the login reply of the new account (token included).
 * Missing fields answer 7 (the vendor's ERR_MISSING_PARAMETER), not the schema's 6.
 */
export const reg = defineAction({
  name: 'reg',
  summary:
    'Register a plant owner with an unregistered datalogger PN (`sn`): account under the PN\'s distributor, default plant named after the PN with the datalogger bound; answers the login reply. 7, 4, 15, 21, 19/20, 18/26, 259, 16/17, 519, 257, 520.',
  params: actionParams({
    usr: z.string().max(64).optional(),
    pwd: z.string().max(512).optional(),
    pwdtext: z.string().max(512).optional(),
    email: z.string().max(64).optional(),
    mobile: z.string().max(32).optional(),
    sn: z.string().max(32).optional(),
    'company-key': z.string().max(64).optional(),
  }),
  access: { auth: 'login', permission: null },
  mutates: true,
  result: result<AuthDat>(),
});
