import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 14 typeCode / protocolBinding / protocolChange actions (protocol actions/protocol-admin.ts); operator only, checked by the dispatcher. */
export const protocolAdminHandlers: HandlerMap = {
  queryCollectorTypeCodes: ({ params }, ctx) => ctx.services.protocolAdmin.typeCodes(params),
  addCollectorTypeCode: ({ params, ...i }, ctx) => ctx.services.protocolAdmin.addTypeCode(callerOf(i), params),
  editCollectorTypeCode: async ({ params, ...i }, ctx) => {
    await ctx.services.protocolAdmin.editTypeCode(callerOf(i), params);
    return undefined;
  },
  queryProtocolBindings: ({ params }, ctx) => ctx.services.protocolAdmin.bindings(params),
  addProtocolBinding: ({ params, ...i }, ctx) => ctx.services.protocolAdmin.addBinding(callerOf(i), params),
  setProtocolBindingEnabled: async ({ params, ...i }, ctx) => {
    await ctx.services.protocolAdmin.setBindingEnabled(callerOf(i), params.id, params.enabled);
    return undefined;
  },
  deleteProtocolBinding: async ({ params }, ctx) => {
    await ctx.services.protocolAdmin.deleteBinding(params.id);
    return undefined;
  },
  queryProtocolDevices: ({ params }, ctx) => ctx.services.protocolAdmin.devices(params),
  changeDeviceProtocol: ({ params, ...i }, ctx) => ctx.services.protocolAdmin.changeDevcode(callerOf(i), params),
  queryProtocolChanges: ({ params }, ctx) => ctx.services.protocolAdmin.changes(params),
};
