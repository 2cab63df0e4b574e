import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { subAccountPasswordOfCall } from '../accounts/sub-account-password.js';
import { withContactNotice } from '../accounts/account-admin.actions.js';

export const viewerHandlers: HandlerMap = {
  addPlantBrowser: ({ params, call, ...i }, ctx) => {
    const pwdSha1 = subAccountPasswordOfCall({ pwd: params.pwd, pwdtext: params.pwdtext }, call, ctx.config);
    return ctx.services.viewers.add(callerOf(i), {
      usr: params.usr,
      pwdSha1,
      email: params.email,
      mobile: params.mobile,
      desc: params.desc,
      enable: params.enable,
      pid: params.pid,
    });
  },
  editPlantBrowser: async ({ params, call, ...i }, ctx) => {
    const pwdSha1 =
      params.pwd !== undefined
        ? subAccountPasswordOfCall({ pwd: params.pwd, pwdtext: params.pwdtext }, call, ctx.config)
        : undefined;
    await withContactNotice(ctx, params.uid, params, call, () =>
      ctx.services.viewers.edit(callerOf(i), {
        uid: params.uid,
        pwdSha1,
        email: params.email,
        mobile: params.mobile,
        qname: params.qname,
        photo: params.photo,
        cname: params.cname,
        ctel: params.ctel,
        desc: params.desc,
        enable: params.enable,
        pid: params.pid,
      }),
    );
    return undefined;
  },
  delPlantBrowser: async ({ params, ...i }, ctx) => {
    await ctx.services.viewers.remove(callerOf(i), params.uid);
    return undefined;
  },
  queryPlantBrowsers: ({ params, ...i }, ctx) => ctx.services.viewers.list(callerOf(i), params),
};
