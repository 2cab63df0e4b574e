import { ACCOUNT_STATUS, ApiError } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Self-service account actions (vendor-actions.md §3). */
export const accountHandlers = {
  queryAccountInfo: async (input, ctx) => {
    const caller = callerOf(input);
    const row = await ctx.services.accounts.accountForReading(caller, input.params.uid);
    // Contact data and the last sign-in address only for those who may manage the account.
    const visible = await ctx.services.accountAdmin.contactVisibility(caller);
    return ctx.services.accountAdmin.masked(ctx.services.accounts.accountInfo(row), visible(row));
  },
  logoutVerifiction: (input) => {
    if (callerOf(input).status !== ACCOUNT_STATUS.CANCELLING) throw new ApiError(12);
    return Promise.resolve(undefined);
  },
  updatePassword: async (input, ctx) => {
    const { newpwd, newpwdtext } = input.params;
    await ctx.services.auth.updatePassword(callerOf(input), { newpwd, newpwdtext }, input.call);
    return undefined;
  },
} satisfies HandlerMap;
