import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 15 rechargeRecord actions (protocol actions/recharge-records.ts); roles 0/1/2/3, scoped by the service. */
export const rechargeRecordHandlers: HandlerMap = {
  queryMyRechargeOrders: ({ params, ...i }, ctx) => ctx.services.rechargeRecords.list(callerOf(i), params),
  queryMyRechargeOrder: ({ params, ...i }, ctx) => ctx.services.rechargeRecords.detail(callerOf(i), params.id),
  exportMyRechargeOrders: ({ params, ...i }, ctx) =>
    ctx.services.rechargeRecords.export(callerOf(i), params, i.call.locale),
};
