import { ApiError, ROLE } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import type { AppContext } from '../../context.js';
import type { CallInfo } from '../../http/registry.js';
import { discardAvatar } from './avatars.js';
import { subAccountPasswordOfCall } from './sub-account-password.js';

/**
 * The photo an edit is about to replace or clear (`photo` given), read before the edit so that a
 * replaced or cleared avatar's files go once the edit has committed (`discardAvatar`); the edit
 * itself checks that the caller may change the account.
 */
async function photoOf(ctx: AppContext, uid: number, photo: string | undefined): Promise<string | undefined> {
  if (photo === undefined) return undefined;
  return (await ctx.repos.accounts.findById(uid))?.photo;
}

/**
 * Runs an edit of account `uid` and, when it changed or cleared the recovery e-mail or phone,
 * sends the security notice to the old address (issue 12: vendor clients change them without a code).
 */
export async function withContactNotice(
  ctx: AppContext,
  uid: number,
  contact: { email?: string | undefined; mobile?: string | undefined },
  call: Pick<CallInfo, 'ip' | 'locale'>,
  edit: () => Promise<void>,
): Promise<void> {
  if (contact.email === undefined && contact.mobile === undefined) return edit();
  const before = await ctx.repos.accounts.findById(uid);
  await edit();
  const after = before && (await ctx.repos.accounts.findById(uid));
  if (before && after) await ctx.services.contactNotices.notifyContactChange(before, after, call);
}

/**
 * Account management of issue 9 (vendor-actions.md §3–§4, spec §2 / §3 / §5): handlers only read
 * the parameters and call `AccountAdminService`, which enforces reach, rules and audit.
 */
export const accountAdminHandlers = {
  editAccount: async (input, ctx) => {
    const { bomb, ...profile } = input.params;
    // A local photo path must be an avatar stored by uploadAvatar (issue 12); http(s) URLs as before.
    if (profile.photo?.startsWith('/') && !(await ctx.services.avatars.exists(profile.photo))) throw new ApiError(6, 'photo');
    const caller = callerOf(input);
    const previous = await photoOf(ctx, caller.accountId, profile.photo);
    await withContactNotice(ctx, caller.accountId, profile, input.call, () =>
      ctx.services.accountAdmin.editOwn(caller, { ...profile, bomb }),
    );
    if (previous !== undefined) await discardAvatar(ctx, previous, profile.photo);
    return undefined;
  },

  disableOrEnableAccount: async (input, ctx) => {
    await ctx.services.accountAdmin.setEnabled(callerOf(input), input.params.uid, input.params.enable);
    return undefined;
  },

  webQueryUsrEs: async (input, ctx) => {
    const p = input.params;
    const res = await ctx.services.accountAdmin.listAccounts(
      callerOf(input),
      {
        roles: p.role !== undefined ? [p.role] : undefined,
        usr: p.usr || undefined,
        // Issue 14: one box finds an account by username, nickname, phone, e-mail or a held PN.
        search: p.search?.trim() ? { text: p.search.trim(), contact: callerOf(input).role !== ROLE.GROUP } : undefined,
        enable: p.enable,
        active: p.active,
        groupId: p.groupid === '' ? null : p.groupid,
        dealerCode: p.dist || undefined,
        order: p.orderBy ?? 'newest',
      },
      p,
    );
    return { total: res.total, page: res.page, pagesize: res.pagesize, account: res.rows };
  },

  adminQueryUsrAccount: async (input, ctx) => {
    const p = input.params;
    const caller = callerOf(input);
    const res = await ctx.services.accountAdmin.listAccounts(
      caller,
      {
        roles: p.role !== undefined ? [p.role] : undefined,
        // A group account does not manage its members: it cannot find them by contact data either.
        search: { text: p.usr, contact: caller.role !== ROLE.GROUP },
        order: 'ascUsr',
      },
      p,
    );
    return { total: res.total, page: res.page, pagesize: res.pagesize, account: res.rows };
  },

  editSubAccount: async (input, ctx) => {
    const { uid, ...profile } = input.params;
    const previous = await photoOf(ctx, uid, profile.photo);
    await withContactNotice(ctx, uid, profile, input.call, () =>
      ctx.services.accountAdmin.editSubAccount(callerOf(input), uid, profile),
    );
    if (previous !== undefined) await discardAvatar(ctx, previous, profile.photo);
    return undefined;
  },

  addDist: async (input, ctx) => {
    const { pwd, pwdtext, ...rest } = input.params;
    const pwdSha1 = subAccountPasswordOfCall({ pwd, pwdtext }, input.call, ctx.config);
    await ctx.services.accountAdmin.addDist(callerOf(input), { ...rest, pwdSha1 });
    return undefined;
  },

  editDist: async (input, ctx) => {
    const { uid, pwd, pwdtext, ...rest } = input.params;
    const pwdSha1 = pwd !== undefined ? subAccountPasswordOfCall({ pwd, pwdtext }, input.call, ctx.config) : undefined;
    const previous = await photoOf(ctx, uid, rest.photo);
    await withContactNotice(ctx, uid, rest, input.call, () =>
      ctx.services.accountAdmin.editDist(callerOf(input), uid, { ...rest, pwdSha1 }),
    );
    if (previous !== undefined) await discardAvatar(ctx, previous, rest.photo);
    return undefined;
  },

  delDist: async (input, ctx) => {
    await ctx.services.accountAdmin.delete(callerOf(input), input.params.uid, { dealerOnly: true });
    return undefined;
  },

  queryDists: async (input, ctx) => {
    const p = input.params;
    const res = await ctx.services.accountAdmin.listInfo(
      callerOf(input),
      { roles: [ROLE.DISTRIBUTOR], subAdmin: false, usr: p.usr || undefined, enable: p.enable, order: 'newest' },
      p,
    );
    return { total: res.total, page: res.page, pagesize: res.pagesize, dist: res.rows };
  },

  addPlantOwner: async (input, ctx) => {
    const { pwd, pwdtext, ...rest } = input.params;
    const pwdSha1 = subAccountPasswordOfCall({ pwd, pwdtext }, input.call, ctx.config);
    const row = await ctx.services.accountAdmin.addPlantOwner(callerOf(input), { ...rest, pwdSha1 });
    return { uid: row.id };
  },

  queryPlantOwners: async (input, ctx) => {
    const p = input.params;
    const res = await ctx.services.accountAdmin.listInfo(
      callerOf(input),
      { roles: [ROLE.OWNER], usr: p.usr || undefined, order: 'newest' },
      p,
    );
    return { total: res.total, page: res.page, pagesize: res.pagesize, plantOwner: res.rows };
  },

  querySubUsrPlantOwners: async (input, ctx) => {
    const p = input.params;
    const caller = callerOf(input);
    const admin = ctx.services.accountAdmin;
    // As documented (page, pagesize only): the owners under the caller's subordinate accounts, i.e.
    // its reach without the owners directly under itself (a sub-administrator: under the account it
    // administers). Sunwatch extension: `uid` names one subordinate account (11 out of reach).
    const where =
      p.uid === undefined
        ? { notChildOf: admin.principalId(caller) }
        : { within: (await admin.target(caller, p.uid, 'read')).path };
    const res = await admin.listInfo(caller, { roles: [ROLE.OWNER], ...where, order: 'newest' }, p);
    return { total: res.total, page: res.page, pagesize: res.pagesize, plantOwner: res.rows };
  },

  addGroupAccount: async (input, ctx) => {
    const { pwd, pwdtext, ...rest } = input.params;
    const pwdSha1 = subAccountPasswordOfCall({ pwd, pwdtext }, input.call, ctx.config);
    const row = await ctx.services.accountAdmin.addGroupAccount(callerOf(input), { ...rest, pwdSha1 });
    return { uid: row.id };
  },

  addSubAdmin: async (input, ctx) => {
    const { pwd, pwdtext, ...rest } = input.params;
    const pwdSha1 = subAccountPasswordOfCall({ pwd, pwdtext }, input.call, ctx.config);
    const row = await ctx.services.accountAdmin.addSubAdmin(callerOf(input), { ...rest, pwdSha1 });
    return { uid: row.id };
  },

  delAccount: async (input, ctx) => {
    await ctx.services.accountAdmin.delete(callerOf(input), input.params.uid, { dealerOnly: false });
    return undefined;
  },

  resetAccountPassword: async (input, ctx) => {
    const { uid, pwd, pwdtext } = input.params;
    const caller = callerOf(input);
    // Reach first: an id out of reach answers 11 whatever the password.
    await ctx.services.accountAdmin.target(caller, uid);
    const pwdSha1 = subAccountPasswordOfCall({ pwd, pwdtext }, input.call, ctx.config);
    await ctx.services.accountAdmin.resetPassword(caller, uid, pwdSha1);
    return undefined;
  },

  setAccountAddCollector: async (input, ctx) => {
    await ctx.services.accountAdmin.setAddCollector(callerOf(input), input.params.uid, input.params.enable);
    return undefined;
  },

  relateOwner: async (input, ctx) => {
    await ctx.services.accountAdmin.relateOwner(callerOf(input), input.params.uid, input.params.puid);
    return undefined;
  },
} satisfies HandlerMap;
