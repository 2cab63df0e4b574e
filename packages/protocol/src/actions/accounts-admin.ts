import { z } from 'zod';
import { defineAction, result, UPLOAD_RULES } from './define.js';
import { actionParams, idList, page, pageSize, wireBool, wireInt } from './common.js';
import type { Role } from '../roles.js';
import type { AccountInfoDat } from './account.js';

/**
 * Account management (issue 9; spec §2 "Account management", §3, §6; vendor-actions.md §3–§4).
 *
 * Wire conventions of the vendor pages, kept byte-compatible:
 * - every `pwd` here is `hex(RC4(key = the caller's login secret, sha1(password)))` (lowercase hex,
 *   80 characters); the server decrypts it with the session secret, a wrong one is err 16;
 * - edits: an omitted parameter is unchanged, an empty one (`&cname=`) clears the field;
 * - lists: `page` from 0, `pagesize` 1..50, reply `{total, page, pagesize, <array>}`;
 * - an account out of the caller's reach answers exactly like a missing one (err 11 on `uid`, see
 *   docs/decisions.md "queryAccountInfo with a uid out of reach");
 * - usernames, passwords, e-mail and phone are validated by the server with the catalogue's
 *   codes (21 username, 17 password, 20 e-mail, 19 phone, 24/519 duplicate), so the params below
 *   accept any string for them.
 *
 * Sunwatch additions (marked so) cover what spec §2 names and the vendor pages do not show: group
 * accounts, sub-administrators, delete, reset password, move group, related owner, the
 * add-datalogger permission, groups, roles and the per-field control visibility.
 */

/** Sub-account password: hex(RC4(secret, sha1(pwd))). */
const rc4Pwd = () => z.string().regex(/^[0-9a-fA-F]{2,256}$/);
/**
 * Sunwatch extension next to every `pwd`: hex(RC4(secret, password)), so the server can check the
 * spec §5 password rules itself (as `updatePassword`'s `newpwdtext`). The vendor's digest-only form
 * stays accepted under the `compatible` sign policy and is refused under `strict`.
 */
const rc4PwdText = () =>
  z
    .string()
    .regex(/^(?:[0-9a-fA-F]{2}){1,128}$/)
    .optional();
/** Optional free text that may be cleared with an empty value (`&cname=`). */
const text = (max: number) => z.string().max(max).optional();
/** Contact and profile fields shared by the create/edit actions of the vendor pages. */
const profile = {
  email: text(64),
  mobile: text(32),
  qname: text(32),
  photo: text(1024),
  cname: text(255),
  ctel: text(64),
  desc: text(1024),
};

/** A row of the account lists (webQueryUsrEs, adminQueryUsrAccount). */
export interface AccountListRow {
  uid: number;
  usr: string;
  qname: string;
  role: Role;
  /** Custom role bound to the account (0 = none). */
  rid: number;
  /** Its name ("" when none). Sunwatch addition. */
  roleName: string;
  desc: string;
  enable: boolean;
  /** Blank unless the caller may manage the account. */
  mobile: string;
  /** Blank unless the caller may manage the account. */
  email: string;
  /** Registration time, UTC `yyyy-mm-dd hh:mi:ss`. */
  gts: string;
  /** User group (0 = ungrouped). */
  groupId: number;
  group: string;
  /** Counts of what the account holds. */
  collectors: number;
  devices: number;
  /** Sunwatch addition: plants (projects). */
  plants: number;
  lastLoginTs: string;
  /** Sunwatch additions. */
  parentUid: number;
  parentUsr: string;
  /** Dealer code(s) of a distributor, manufacturer code of a manufacturer. */
  dist: string;
  vendor: string;
  /** May the account add dataloggers (owners)? */
  addCollector: boolean;
  /** Role 2 acting for another account: a sub-administrator. */
  subAdmin: boolean;
}

export interface AccountListDat {
  total: number;
  page: number;
  pagesize: number;
  account: AccountListRow[];
}

// ---------------------------------------------------------------- self-service (§3)

export const editAccount = defineAction({
  name: 'editAccount',
  summary:
    "Edit the caller's own profile; omitted = unchanged, empty = cleared. Vendor compatible: `email`/`mobile` need no code here, but 19/20 for their format, 18 for a phone and 26 for an e-mail (case-insensitive) another account holds; every change is audited, and a changed or cleared address gets a security notice at its OLD address (mail, or SMS for a phone) (docs/decisions.md, issue 12).",
  params: actionParams({
    ...profile,
    caddr: text(512),
    qq: text(64),
    wx: text(64),
    bomb: wireBool().optional(),
  }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<undefined>(),
});

export const disableOrEnableAccount = defineAction({
  name: 'disableOrEnableAccount',
  summary:
    'Enable (enable=true) or disable (enable=false) subordinate accounts (uid comma list). A disabled ' +
    'account cannot sign in and its tokens stop working at once. err 11 names the first account out of reach.',
  params: actionParams({ uid: idList(), enable: wireBool() }),
  access: { auth: 'signed', permission: 'account_manag', button: 'account_enable' },
  mutates: true,
  result: result<undefined>(),
});

// ---------------------------------------------------------------- accounts (§4, DM ch80)

export const webQueryUsrEs = defineAction({
  name: 'webQueryUsrEs',
  summary:
    'Accounts in the caller\'s subtree: filters role, usr (fuzzy), search (fuzzy username, nickname, phone, e-mail or held PN), enable, active, groupid (empty = ungrouped), ' +
    'dist (dealer code); orderBy ascUsr/descUsr; counts of dataloggers, devices and plants; paged.',
  params: actionParams({
    role: wireInt().optional(),
    usr: z.string().max(64).optional(),
    enable: wireBool().optional(),
    active: wireBool().optional(),
    /** A group id; an empty value selects ungrouped accounts. */
    groupid: z.union([z.literal(''), wireInt().min(1)]).optional(),
    /** Sunwatch addition: dealer code filter. */
    dist: z.string().max(64).optional(),
    /** Sunwatch addition (issue 14): fuzzy username, nickname, phone, e-mail or held datalogger PN. */
    search: z.string().max(64).optional(),
    orderBy: z.enum(['ascUsr', 'descUsr']).optional(),
    page: page(),
    pagesize: pageSize(),
  }),
  access: { auth: 'signed', permission: 'account_manag' },
  mutates: false,
  result: result<AccountListDat>(),
});

export const adminQueryUsrAccount = defineAction({
  name: 'adminQueryUsrAccount',
  summary:
    'Find accounts in the caller\'s subtree by username, nickname, phone, e-mail or a datalogger PN they hold ' +
    '(fuzzy `usr`); same rows as webQueryUsrEs; paged. Used by "related owner" and "move" dialogs.',
  params: actionParams({
    usr: z.string().min(1).max(64),
    role: wireInt().optional(),
    page: page(),
    pagesize: pageSize(),
  }),
  access: { auth: 'signed', permission: 'account_manag' },
  mutates: false,
  result: result<AccountListDat>(),
});

export const editSubAccount = defineAction({
  name: 'editSubAccount',
  summary: "Edit a subordinate account's profile; omitted = unchanged, empty = cleared.",
  params: actionParams({
    uid: wireInt(),
    ...profile,
    caddr: text(512),
    qq: text(64),
    wx: text(64),
  }),
  access: { auth: 'signed', permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

// ---------------------------------------------------------------- dealers (ch80)

export const addDist = defineAction({
  name: 'addDist',
  summary: 'Create a subordinate distributor (dealer) with dealer codes (vcode, comma list) and an optional custom role. 18 / 26 when another account holds the phone / e-mail (as editAccount).',
  params: actionParams({
    usr: z.string().max(64),
    pwd: rc4Pwd(),
    pwdtext: rc4PwdText(),
    ...profile,
    rid: wireInt().min(1).optional(),
    vcode: z.string().min(1).max(256),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_add' },
  mutates: true,
  result: result<undefined>(),
});

export const editDist = defineAction({
  name: 'editDist',
  summary: 'Edit a subordinate distributor; pwd (RC4) resets its password; omitted = unchanged.',
  params: actionParams({
    uid: wireInt(),
    pwd: rc4Pwd().optional(),
    pwdtext: rc4PwdText(),
    ...profile,
    /** Empty unbinds the custom role. */
    rid: z.union([z.literal(''), wireInt().min(1)]).optional(),
    vcode: z.string().max(256).optional(),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const delDist = defineAction({
  name: 'delDist',
  summary: 'Delete a subordinate distributor (unrecoverable): 517 while it holds dataloggers, 518 while it has subordinate users.',
  params: actionParams({ uid: wireInt() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_delete' },
  mutates: true,
  result: result<undefined>(),
});

export const queryDists = defineAction({
  name: 'queryDists',
  summary: 'Subordinate distributors: usr (fuzzy), enable; paged; rows in the queryAccountInfo shape.',
  params: actionParams({
    usr: z.string().max(64).optional(),
    enable: wireBool().optional(),
    page: page(),
    pagesize: pageSize(),
  }),
  access: { auth: 'signed', permission: 'account_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; dist: AccountInfoDat[] }>(),
});

// ---------------------------------------------------------------- plant owners (ch82)

export const addPlantOwner = defineAction({
  name: 'addPlantOwner',
  summary: 'Create a plant owner under the caller (or, Sunwatch addition, under a subordinate distributor `puid`). 18 / 26 when another account holds the phone / e-mail (as editAccount).',
  params: actionParams({
    usr: z.string().max(64),
    pwd: rc4Pwd(),
    pwdtext: rc4PwdText(),
    ...profile,
    rid: wireInt().min(1).optional(),
    /** Sunwatch addition: the superior (a distributor or manufacturer in the caller's subtree). */
    puid: wireInt().min(1).optional(),
    /** Sunwatch addition: may the owner add dataloggers (default true). */
    addCollector: wireBool().optional(),
    /** Sunwatch addition: user group. */
    groupid: wireInt().min(1).optional(),
  }),
  access: { auth: 'signed', roles: [1, 2, 3, 15], permission: 'account_manag', button: 'account_add' },
  mutates: true,
  result: result<{ uid: number }>(),
});

export const queryPlantOwners = defineAction({
  name: 'queryPlantOwners',
  summary: 'Plant owners in the caller\'s subtree, newest registration first: usr (fuzzy); paged.',
  params: actionParams({ usr: z.string().max(64).optional(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'account_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; plantOwner: AccountInfoDat[] }>(),
});

export const querySubUsrPlantOwners = defineAction({
  name: 'querySubUsrPlantOwners',
  summary:
    'Plant owners under the caller\'s subordinate accounts (its reach without its direct owners), newest first; paged. Sunwatch extension: `uid` narrows to one subordinate account.',
  params: actionParams({ uid: wireInt().optional(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'account_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; plantOwner: AccountInfoDat[] }>(),
});

// ---------------------------------------------------------------- Sunwatch additions: other accounts

export const addGroupAccount = defineAction({
  name: 'addGroupAccount',
  summary: 'Sunwatch: create a group account (role 3) that sees the union of the members of user group `groupid`. 18 / 26 when another account holds the phone / e-mail (as editAccount).',
  params: actionParams({
    usr: z.string().max(64),
    pwd: rc4Pwd(),
    pwdtext: rc4PwdText(),
    groupid: wireInt().min(1),
    ...profile,
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_add' },
  mutates: true,
  result: result<{ uid: number }>(),
});

export const addSubAdmin = defineAction({
  name: 'addSubAdmin',
  summary:
    'Sunwatch: create a sub-administrator (role 2 acting for the caller) whose menus and actions come from custom role `rid` (required). 18 / 26 when another account holds the phone / e-mail (as editAccount).',
  params: actionParams({
    usr: z.string().max(64),
    pwd: rc4Pwd(),
    pwdtext: rc4PwdText(),
    /** Required: "a role is required when assigning permissions". Missing → err 7. */
    rid: wireInt().min(1).optional(),
    ...profile,
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_add' },
  mutates: true,
  result: result<{ uid: number }>(),
});

export const delAccount = defineAction({
  name: 'delAccount',
  summary:
    'Sunwatch: delete a subordinate account of any type (unrecoverable): 517 while it holds dataloggers, 518 while it has subordinate users.',
  params: actionParams({ uid: wireInt() }),
  access: { auth: 'signed', permission: 'account_manag', button: 'account_delete' },
  mutates: true,
  result: result<undefined>(),
});

export const resetAccountPassword = defineAction({
  name: 'resetAccountPassword',
  summary: "Sunwatch: set a subordinate account's password (pwd = RC4 of the caller's secret); its sessions end.",
  params: actionParams({ uid: wireInt(), pwd: rc4Pwd(), pwdtext: rc4PwdText() }),
  access: { auth: 'signed', permission: 'account_manag', button: 'account_reset_password' },
  mutates: true,
  result: result<undefined>(),
});

export const setAccountAddCollector = defineAction({
  name: 'setAccountAddCollector',
  summary: 'Sunwatch: allow or forbid subordinate accounts (uid comma list) to add dataloggers.',
  params: actionParams({ uid: idList(), enable: wireBool() }),
  access: { auth: 'signed', permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const relateOwner = defineAction({
  name: 'relateOwner',
  summary:
    'Sunwatch: move plant owners (uid comma list) under superior `puid`, a distributor or manufacturer in the caller\'s subtree ' +
    '(1027 otherwise; 276 for owners holding other manufacturers\' dataloggers).',
  params: actionParams({ uid: idList(), puid: wireInt().min(1) }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

// ---------------------------------------------------------------- Sunwatch additions: user groups

export interface UsrGroupRow {
  groupid: number;
  name: string;
  note: string;
  /** Member accounts. */
  count: number;
  gts: string;
}

export const queryUsrGroups = defineAction({
  name: 'queryUsrGroups',
  summary: 'Sunwatch: the user groups of the caller (the account it administers), with member counts; name (fuzzy); paged.',
  params: actionParams({ name: z.string().max(64).optional(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; group: UsrGroupRow[] }>(),
});

export const addUsrGroup = defineAction({
  name: 'addUsrGroup',
  summary: 'Sunwatch: create a user group (name required, unique per administrator: 516).',
  params: actionParams({ name: z.string().max(64), note: text(512) }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<{ groupid: number }>(),
});

export const editUsrGroup = defineAction({
  name: 'editUsrGroup',
  summary: 'Sunwatch: rename a user group or change its note.',
  params: actionParams({ groupid: wireInt(), name: z.string().max(64).optional(), note: text(512) }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const delUsrGroup = defineAction({
  name: 'delUsrGroup',
  summary: 'Sunwatch: delete a user group; its members become ungrouped (a group account bound to it: 518).',
  params: actionParams({ groupid: wireInt() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_delete' },
  mutates: true,
  result: result<undefined>(),
});

export const moveAccountGroup = defineAction({
  name: 'moveAccountGroup',
  summary: 'Sunwatch: move accounts (uid comma list) into user group `groupid` (empty = out of any group).',
  params: actionParams({ uid: idList(), groupid: z.union([z.literal(''), wireInt().min(1)]) }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

// ---------------------------------------------------------------- Sunwatch additions: roles

/** Function points and data permissions of a custom role. */
export interface CustomRoleDat {
  rid: number;
  name: string;
  desc: string;
  /** Granted function points: names of PERMISSION_TREE (modules, first pages, second pages, buttons). */
  functions: string[];
  /** Data permission: the user groups whose accounts' data the role reaches (empty = none set: the whole subtree). */
  dataGroups: number[];
  /** Accounts bound to the role. */
  users: number;
  /** Is it bound to a distributor (its data permissions are then frozen)? */
  boundToDist: boolean;
  gts: string;
}

export const queryRoles = defineAction({
  name: 'queryRoles',
  summary: 'Sunwatch: the custom roles of the caller (the account it administers): name (fuzzy); paged.',
  params: actionParams({ name: z.string().max(64).optional(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; role: CustomRoleDat[] }>(),
});

export const addRole = defineAction({
  name: 'addRole',
  summary:
    'Sunwatch: create a custom role: unique name (516 "The role name already exists"), function points and data permission.',
  params: actionParams({
    name: z.string().max(64),
    desc: text(512),
    /** Comma-separated function point names (PERMISSION_TREE). */
    functions: z.string().max(4096).optional(),
    /** Comma-separated user group ids (data permission). */
    dataGroups: idList().optional(),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<{ rid: number }>(),
});

export const editRole = defineAction({
  name: 'editRole',
  summary:
    'Sunwatch: edit a custom role; omitted = unchanged. Its data permission cannot change while it is bound to a distributor (11).',
  params: actionParams({
    rid: wireInt(),
    name: z.string().max(64).optional(),
    desc: text(512),
    functions: z.string().max(4096).optional(),
    dataGroups: idList().optional(),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const delRole = defineAction({
  name: 'delRole',
  summary: 'Sunwatch: delete a custom role; 528 while an account is bound to it.',
  params: actionParams({ rid: wireInt() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_delete' },
  mutates: true,
  result: result<undefined>(),
});

export const assignRole = defineAction({
  name: 'assignRole',
  summary:
    'Sunwatch: bind custom role `rid` (required: err 7 without it) to subordinate accounts (uid comma list). A distributor ' +
    'cannot be bound to a role with data permissions (11).',
  params: actionParams({ uid: idList(), rid: wireInt().min(1).optional() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'account_edit' },
  mutates: true,
  result: result<undefined>(),
});

// ---------------------------------------------------------------- control-field visibility

export interface CtrlFieldForDist {
  /** Control id of the protocol definition. */
  id: string;
  name: string;
  /** May owners see and write it? (sic, vendor spelling) */
  visable: boolean;
  /** May subordinate administrators see and write it? */
  distributorPermissionFlag: boolean;
}

export const queryDeviceCtrlFieldForDist = defineAction({
  name: 'queryDeviceCtrlFieldForDist',
  summary:
    'Which control fields of a devcode the caller\'s subordinate administrators and owners may see and write (default: all).',
  params: actionParams({ devcode: wireInt() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'device_manag' },
  mutates: false,
  result: result<{ devcode: number; field: CtrlFieldForDist[] }>(),
});

export const editDeviceCtrlFieldForDist = defineAction({
  name: 'editDeviceCtrlFieldForDist',
  summary: 'Set the visibility of control fields (id comma list) of a devcode for owners (visable) and sub-administrators.',
  params: actionParams({
    devcode: wireInt(),
    id: z.string().min(1).max(4096),
    visable: wireBool().optional(),
    distributorPermissionFlag: wireBool().optional(),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'device_manag', button: 'device_control_write' },
  mutates: true,
  result: result<undefined>(),
});

// ---------------------------------------------------------------- plant viewers (ch83)

export interface PlantBrowserRow {
  uid: number;
  usr: string;
  /** Names of the assigned plants. */
  plant: string[];
  /** Sunwatch addition: their ids. */
  pid: number[];
  mobile: string;
  email: string;
  desc: string;
  enable: boolean;
  gts: string;
  lastLoginTs: string;
}

export const addPlantBrowser = defineAction({
  name: 'addPlantBrowser',
  summary: 'Create a viewer (role 5) of some of the caller\'s plants (pid comma list): read-only. 18 / 26 when another account holds the phone / e-mail (as editAccount).',
  params: actionParams({
    usr: z.string().max(64),
    pwd: rc4Pwd(),
    pwdtext: rc4PwdText(),
    mobile: text(32),
    email: text(64),
    desc: text(1024),
    rid: wireInt().min(1).optional(),
    enable: wireBool().optional(),
    pid: idList().optional(),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'account_manag' },
  mutates: true,
  result: result<{ uid: number }>(),
});

export const editPlantBrowser = defineAction({
  name: 'editPlantBrowser',
  summary: 'Edit a viewer: password, contact, plants (pid replaces the list); Sunwatch adds `enable`. Omitted = unchanged.',
  params: actionParams({
    uid: wireInt(),
    pwd: rc4Pwd().optional(),
    pwdtext: rc4PwdText(),
    ...profile,
    rid: z.union([z.literal(''), wireInt().min(1)]).optional(),
    pid: idList().optional(),
    enable: wireBool().optional(),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'account_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const delPlantBrowser = defineAction({
  name: 'delPlantBrowser',
  summary: 'Delete a viewer (523 "plant owner / viewer only" when uid is not a viewer).',
  params: actionParams({ uid: wireInt() }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'account_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const queryPlantBrowsers = defineAction({
  name: 'queryPlantBrowsers',
  summary: 'The caller\'s viewers with their plants: usr (fuzzy); paged.',
  params: actionParams({ usr: z.string().max(64).optional(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'account_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; browser: PlantBrowserRow[] }>(),
});

// ---------------------------------------------------------------- datalogger distribution

export const distAddCollector = defineAction({
  name: 'distAddCollector',
  summary:
    "A distributor or manufacturer adds a datalogger to its stock (Dpn, capital D as the vendor prints it). 273 for another manufacturer's.",
  params: actionParams({ Dpn: z.string().max(32), alias: text(128) }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'datalogger_distribute' },
  mutates: true,
  result: result<undefined>(),
});

/** One datalogger of a distribution: its outcome. */
export interface DistributeResult {
  /** Sheet row (1-based) for uploads, else the position in `pn`. */
  row: number;
  pn: string;
  alias: string;
  /** 0 assigned, else the catalogue code of why not. */
  err: number;
  desc: string;
  /** Localised message ("" when assigned). */
  msg: string;
}

export interface DistributeDat {
  total: number;
  ok: number;
  failed: number;
  result: DistributeResult[];
}

export const distributeCollector = defineAction({
  name: 'distributeCollector',
  summary:
    'Sunwatch: assign dataloggers (pn comma list, at most 256) to subordinate account `uid`; every one must belong to the caller (1792); ' +
    'one result per datalogger.',
  params: actionParams({ pn: z.string().min(1).max(8192), uid: wireInt(), alias: text(128) }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'datalogger_distribute' },
  mutates: true,
  result: result<DistributeDat>(),
});

export const distributeCollectorBySheet = defineAction({
  name: 'distributeCollectorBySheet',
  summary:
    'Sunwatch: assign dataloggers from an xlsx/xls sheet (column A PN, column B alias, no header) to account `uid`; a result per row.',
  params: actionParams({ uid: wireInt() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'datalogger_distribute' },
  mutates: true,
  upload: UPLOAD_RULES.sheet,
  result: result<DistributeDat>(),
});

export const distributeCollectorByOrder = defineAction({
  name: 'distributeCollectorByOrder',
  summary:
    'Sunwatch: assign every datalogger of order `orderNo` to account `uid` (spec §8 order allocation errors 1, 7, 8, 12, 23, 259, 261, 772).',
  params: actionParams({ orderNo: z.string().max(64), uid: wireInt() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'account_manag', button: 'datalogger_distribute' },
  mutates: true,
  result: result<DistributeDat>(),
});
