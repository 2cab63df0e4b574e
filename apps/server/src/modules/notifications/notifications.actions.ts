import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 11 notifications (protocol actions/notifications.ts). */
export const notificationHandlers: HandlerMap = {
  queryEmailPush: ({ params, ...i }, ctx) => ctx.services.notifications.pushes.list(callerOf(i), params),
  addEmailPush: ({ params, ...i }, ctx) => ctx.services.notifications.pushes.add(callerOf(i), params, i.call.locale),
  editEmailPush: async ({ params, ...i }, ctx) => {
    const { id, email, pid, level, report, language, enable } = params;
    await ctx.services.notifications.pushes.edit(callerOf(i), id, { email, pid, level, report, language, enable });
    return undefined;
  },
  delEmailPush: async ({ params, ...i }, ctx) => {
    await ctx.services.notifications.pushes.remove(callerOf(i), params.id);
    return undefined;
  },
  queryMailOutbox: ({ params }, ctx) => ctx.services.notifications.outbox(params),
  resendMail: async ({ params }, ctx) => {
    await ctx.services.notifications.resend(params.id);
    return undefined;
  },
};
