import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, wireBool, wireInt } from './common.js';
import type { Role } from '../roles.js';
import type { PermissionEntry } from '../permissions.js';

/** `dat` of auth / authSource (wire-protocol.md §2). */
export interface AuthDat {
  secret: string;
  expire: number;
  token: string;
  role: Role;
  uid: number;
  usr: string;
  /** Sunwatch web: opaque credential for the PPR/panel services. */
  pprAuth: string;
  /** Present when `isRem=1` was asked: a revocable 7-day remember-me token (never the password). */
  rem?: string;
  remExpire?: number;
}

const loginParams = actionParams({
  usr: z.string().min(1),
  'company-key': z.string().min(1),
  isRem: wireBool().optional(),
});

export const auth = defineAction({
  name: 'auth',
  summary: 'Sign in with username and password digest; returns token and secret.',
  params: loginParams,
  access: { auth: 'login', permission: null },
  mutates: true,
  result: result<AuthDat>(),
});

export const authSource = defineAction({
  name: 'authSource',
  summary: 'Sign in (energy-storage clients); same as auth.',
  params: loginParams,
  access: { auth: 'login', permission: null },
  mutates: true,
  result: result<AuthDat>(),
});

export const authByRememberToken = defineAction({
  name: 'authByRememberToken',
  summary: 'Sign in again with a remember-me token; the token is rotated.',
  params: actionParams({ rem: z.string().regex(/^[0-9a-f]{64}$/), 'company-key': z.string().min(1) }),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<AuthDat>(),
});

export const updateToken = defineAction({
  name: 'updateToken',
  summary: 'Issue a fresh token and secret for the calling session; the old token stops working.',
  params: actionParams({}),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<{ token: string; secret: string; expire: number }>(),
});

export const logout = defineAction({
  name: 'logout',
  summary: 'Revoke the calling token (and the given remember-me token).',
  params: actionParams({ rem: z.string().optional() }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

/** Account record of queryAccountInfo (vendor-actions.md §3), plus role-2 permissions. */
export interface AccountInfoDat {
  uid: number;
  usr: string;
  role: Role;
  mobile: string;
  email: string;
  qname: string;
  photo: string;
  qq: string;
  wx: string;
  cname: string;
  caddr: string;
  ctel: string;
  bomb: boolean;
  enable: boolean;
  gts: string;
  desc: string;
  lastAtuhTs: string;
  lastAtuhAddr: string;
  vendor?: string;
  dist?: string;
  permission?: PermissionEntry[];
}

export const queryAccountInfo = defineAction({
  name: 'queryAccountInfo',
  // Permission null: every account reads its own record; reading another account's (uid) needs
  // account_manag, checked by the accounts service (err 11).
  summary: 'The calling account, or one of its subordinate accounts by uid.',
  params: actionParams({ uid: wireInt().optional() }),
  access: { auth: 'signed', permission: null },
  mutates: false,
  result: result<AccountInfoDat>(),
});

export const logoutVerifiction = defineAction({
  name: 'logoutVerifiction',
  summary: 'err 0 when the account is being logged off (cancellation pending), else err 12.',
  params: actionParams({}),
  access: { auth: 'signed', permission: null },
  mutates: false,
  result: result<undefined>(),
});

export const updatePassword = defineAction({
  name: 'updatePassword',
  summary: 'Change password: newpwd = hex(RC4(key sha1(old), sha1(new))).',
  params: actionParams({
    newpwd: z.string().regex(/^[0-9a-fA-F]{80}$/),
    /** Sunwatch extension: hex RC4(key sha1(old), new password), so the server checks the §5 rules. */
    newpwdtext: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2}){1,128}$/)
      .optional(),
  }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});
