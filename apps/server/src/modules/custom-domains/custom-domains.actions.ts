import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 14 custom domains and passwordMaintenance (protocol actions/custom-domains.ts); operator only, checked by the dispatcher. */
export const customDomainHandlers: HandlerMap = {
  queryCustomDomainList: ({ params }, ctx) => ctx.services.customDomains.list(params),
  addCustomDomain: ({ params, ...i }, ctx) => ctx.services.customDomains.add(callerOf(i), params),
  editCustomDomain: async ({ params, ...i }, ctx) => {
    await ctx.services.customDomains.edit(callerOf(i), params);
    return undefined;
  },
  setCustomDomainEnabled: async ({ params, ...i }, ctx) => {
    await ctx.services.customDomains.setEnabled(callerOf(i), params.id, params.enabled);
    return undefined;
  },
  delCustomDomain: async ({ params }, ctx) => {
    await ctx.services.customDomains.remove(params.id);
    return undefined;
  },
  uploadCustomDomainImage: ({ params, call, ...i }, ctx) =>
    ctx.services.customDomains.uploadImage(callerOf(i), params.id, params.kind, call.files[0]),
  delCustomDomainImage: async ({ params, ...i }, ctx) => {
    await ctx.services.customDomains.removeImage(callerOf(i), params.id, params.kind);
    return undefined;
  },
  queryVendorCtrlPwdList: ({ params }, ctx) => ctx.services.vendorCtrlPwd.list(params),
  setVendorCtrlPwd: async ({ params, ...i }, ctx) => {
    await ctx.services.vendorCtrlPwd.set(callerOf(i), params.vendor, params.pwd, params.confirmPwd);
    return undefined;
  },
  clearVendorCtrlPwd: async ({ params, ...i }, ctx) => {
    await ctx.services.vendorCtrlPwd.clear(callerOf(i), params.vendor);
    return undefined;
  },
};
