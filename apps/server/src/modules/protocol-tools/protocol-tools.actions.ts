import type { HandlerMap } from '../../http/registry.js';

/**
 * Issue 14: the operator's protocol tools and device functions (protocol actions/protocol-tools.ts).
 * Read-only; the dispatcher admits role 15 only (roles [15]), so handlers need no caller check.
 */
export const protocolToolsHandlers: HandlerMap = {
  parseRawData: async ({ params, call }, ctx) => Promise.resolve(ctx.services.protocolTools.parse(params, call.locale)),
  webQueryDeviceRawData: ({ params, call }, ctx) => ctx.services.protocolTools.storedRaw(params, call.locale),
  webQueryProtocolDefinitions: async ({ params }, ctx) =>
    Promise.resolve(ctx.services.protocolTools.definitions(params)),
  webQueryProtocolFields: async ({ params, call }, ctx) =>
    Promise.resolve(ctx.services.protocolTools.fields(params, call.locale)),
  webQueryProtocolControls: async ({ params, call }, ctx) =>
    Promise.resolve(ctx.services.protocolTools.controls(params, call.locale)),
  webQueryProtocolFaults: async ({ params, call }, ctx) =>
    Promise.resolve(ctx.services.protocolTools.faults(params, call.locale)),
  webQueryDeviceFunctions: ({ params }, ctx) => ctx.services.protocolTools.deviceFunctions(params),
  webQueryDataloggerTypeFunctions: ({ params }, ctx) => ctx.services.protocolTools.dataloggerTypeFunctions(params),
};
