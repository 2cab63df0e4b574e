import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Custom roles and control-field visibility (issue 9, spec §3 Role, §5, §6). */
export const roleHandlers = {
  queryRoles: (input, ctx) => ctx.services.roles.list(callerOf(input), input.params),
  addRole: (input, ctx) => ctx.services.roles.add(callerOf(input), input.params),
  editRole: async (input, ctx) => {
    await ctx.services.roles.edit(callerOf(input), input.params);
    return undefined;
  },
  delRole: async (input, ctx) => {
    await ctx.services.roles.remove(callerOf(input), input.params.rid);
    return undefined;
  },
  assignRole: async (input, ctx) => {
    await ctx.services.roles.assign(callerOf(input), input.params.uid, input.params.rid);
    return undefined;
  },
  queryDeviceCtrlFieldForDist: (input, ctx) => ctx.services.controlFields.query(callerOf(input), input.params.devcode),
  editDeviceCtrlFieldForDist: async (input, ctx) => {
    await ctx.services.controlFields.edit(callerOf(input), input.params);
    return undefined;
  },
} satisfies HandlerMap;
