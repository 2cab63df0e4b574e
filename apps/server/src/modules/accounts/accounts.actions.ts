import { ACCOUNT_STATUS, ApiError, permissionEntries } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Self-service account actions (vendor-actions.md §3). */
export const accountHandlers = {
  queryAccountInfo: async (input, ctx) => {
    const caller = callerOf(input);
    // The caller's own record: the row read with its session (as fresh as the caller, AuthCache),
    // else one query. Another account: the scoped read (err 11 outside the caller's tree).
    const uid = input.params.uid;
    const own = uid === undefined || uid === caller.accountId ? ctx.services.auth.sessionAccount(caller) : undefined;
    const row = own ?? (await ctx.services.accounts.accountForReading(caller, uid));
    const dat = ctx.services.accounts.accountInfo(row);
    // Menus from the bound custom role's function points, the data the dispatcher checks (issue 9).
    const functions = dat.permission && (await ctx.services.access.roleFunctions(row.id));
    if (functions) dat.permission = permissionEntries(functions);
    // Contact data and the last sign-in address only for those who may manage the account.
    const visible = await ctx.services.accountAdmin.contactVisibility(caller);
    return ctx.services.accountAdmin.masked(dat, visible(row));
  },
  logoutVerifiction: (input) => {
    if (callerOf(input).status !== ACCOUNT_STATUS.CANCELLING) throw new ApiError(12);
    return Promise.resolve(undefined);
  },
  /** Issue 12: an avatar picture for the caller (saved on the profile by editAccount photo=). */
  uploadAvatar: ({ call }, ctx) => ctx.services.avatars.store(call.files[0]),
  updatePassword: async (input, ctx) => {
    const { newpwd, newpwdtext } = input.params;
    await ctx.services.auth.updatePassword(callerOf(input), { newpwd, newpwdtext }, input.call);
    return undefined;
  },
} satisfies HandlerMap;
