import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 14 rechargeRemedy actions (protocol actions/recharge-orders.ts); operator only, checked by the dispatcher. */
export const rechargeOrderHandlers: HandlerMap = {
  queryRechargeOrders: ({ params }, ctx) => ctx.services.rechargeOrders.list(params),
  queryRechargeOrder: ({ params }, ctx) => ctx.services.rechargeOrders.detail(params.id),
  remedyRechargeOrder: ({ params, ...i }, ctx) => ctx.services.rechargeOrders.remedy(callerOf(i), params),
};

/** Issue 15 checkout (protocol actions/payments.ts): the preview and the order. */
export const rechargeCheckoutHandlers: HandlerMap = {
  quoteRechargeOrder: ({ params, ...i }, ctx) => ctx.services.rechargeCheckout.quote(callerOf(i), params),
  createRechargeOrder: ({ params, ...i }, ctx) => ctx.services.rechargeCheckout.create(callerOf(i), params),
};
