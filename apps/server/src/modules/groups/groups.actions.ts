import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** User groups (issue 9, spec §3 Group). */
export const groupHandlers = {
  queryUsrGroups: (input, ctx) => ctx.services.groups.list(callerOf(input), input.params),
  addUsrGroup: (input, ctx) => ctx.services.groups.add(callerOf(input), input.params),
  editUsrGroup: async (input, ctx) => {
    await ctx.services.groups.edit(callerOf(input), input.params);
    return undefined;
  },
  delUsrGroup: async (input, ctx) => {
    await ctx.services.groups.remove(callerOf(input), input.params.groupid);
    return undefined;
  },
  moveAccountGroup: async (input, ctx) => {
    await ctx.services.groups.move(callerOf(input), input.params.uid, input.params.groupid);
    return undefined;
  },
} satisfies HandlerMap;
