import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 14 `log` and `actionLog` actions (protocol actions/operator-logs.ts); operator only, checked by the dispatcher. */
export const operatorLogHandlers: HandlerMap = {
  queryCollectorLogs: ({ params }, ctx) => ctx.services.operatorLogs.collectorLogs(params),
  queryActionLog: ({ params }, ctx) => ctx.services.operatorLogs.actionLog(params),
  queryLogRetention: (_i, ctx) => ctx.services.operatorLogs.retention(),
  setLogRetention: ({ params, ...i }, ctx) => ctx.services.operatorLogs.setRetention(callerOf(i), params),
};
