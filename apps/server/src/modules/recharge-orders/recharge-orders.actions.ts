import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 14 rechargeRemedy actions (protocol actions/recharge-orders.ts); operator only, checked by the dispatcher. */
export const rechargeOrderHandlers: HandlerMap = {
  queryRechargeOrders: ({ params }, ctx) => ctx.services.rechargeOrders.list(params),
  queryRechargeOrder: ({ params }, ctx) => ctx.services.rechargeOrders.detail(params.id),
  remedyRechargeOrder: ({ params, ...i }, ctx) => ctx.services.rechargeOrders.remedy(callerOf(i), params),
};
