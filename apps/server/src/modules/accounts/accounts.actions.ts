import { ACCOUNT_STATUS, ApiError, permissionEntries } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Self-service account actions (vendor-actions.md §3). */
export const accountHandlers = {
  queryAccountInfo: async (input, ctx) => {
    const caller = callerOf(input);
    const row = await ctx.services.accounts.accountForReading(caller, input.params.uid);
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
