import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 13: the firmware library (protocol actions/firmware.ts; docs/firmware/library.md). */
export const firmwareHandlers: HandlerMap = {
  queryFirmwares: ({ params, ...i }, ctx) => ctx.services.firmware.query(callerOf(i), params),
  uploadFirmware: ({ params, call, ...i }, ctx) => ctx.services.firmware.upload(callerOf(i), params, call.files[0]),
  editFirmware: async ({ params, ...i }, ctx) => {
    await ctx.services.firmware.edit(callerOf(i), params);
  },
  delFirmware: async ({ params, ...i }, ctx) => {
    await ctx.services.firmware.remove(callerOf(i), params.firmware);
  },
  downloadFirmware: ({ params, ...i }, ctx) => ctx.services.firmware.downloadUrl(callerOf(i), params.firmware),
  queryDefaultFirmwares: ({ params, ...i }, ctx) => ctx.services.firmware.defaults(callerOf(i), params.vendor),
  setDefaultFirmware: async ({ params, ...i }, ctx) => {
    await ctx.services.firmware.setDefault(callerOf(i), params.dataloggerType, params.firmware);
  },
  queryFirmwareKeys: ({ ...i }, ctx) => ctx.services.firmware.keys(callerOf(i)),
  addFirmwareKey: ({ params, ...i }, ctx) => ctx.services.firmware.addKey(callerOf(i), params.name, params.publicKey),
  revokeFirmwareKey: async ({ params, ...i }, ctx) => {
    await ctx.services.firmware.revokeKey(callerOf(i), params.id);
  },
};
