import type { ActionHandler, HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** auth and authSource are the same sign-in (wire-protocol.md §2); they differ only in name. */
const login: ActionHandler<'auth' | 'authSource'> = ({ params, call }, ctx) =>
  ctx.services.auth.login({
    usr: params.usr,
    companyKey: params['company-key'],
    isRem: params.isRem === true,
    client: call,
    verifySign: call.verifyLoginSign,
  });

/** Sign-in and session actions (wire-protocol.md §2–§3). */
export const authHandlers = {
  auth: login,
  authSource: login,
  authByRememberToken: ({ params, call }, ctx) =>
    ctx.services.auth.loginWithRemember(params.rem, params['company-key'], call),
  updateToken: (input, ctx) => ctx.services.auth.updateToken(callerOf(input), input.call),
  logout: async (input, ctx) => {
    await ctx.services.auth.logout(callerOf(input), input.params.rem);
    return undefined;
  },
} satisfies HandlerMap;
