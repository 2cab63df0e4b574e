import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 16 web error reporting (protocol actions/web-errors.ts): the collector and the operator's reads (role 15, checked by the dispatcher). */
export const webErrorHandlers: HandlerMap = {
  reportWebEvents: ({ params, call, ...i }, ctx) => ctx.services.webErrors.report(callerOf(i), params, call),
  reportWebEventsPublic: ({ params, call }, ctx) => ctx.services.webErrors.report(undefined, params, call),
  queryWebErrorGroups: ({ params }, ctx) => ctx.services.webErrors.groups(params),
  queryWebErrorEvents: ({ params }, ctx) => ctx.services.webErrors.events(params),
  queryWebErrorEvent: ({ params }, ctx) => ctx.services.webErrors.event(params.id),
};
