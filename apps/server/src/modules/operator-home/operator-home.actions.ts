import type { HandlerMap } from '../../http/registry.js';

/** Issue 14 operator home (protocol actions/operator-home.ts); operator only, checked by the dispatcher. */
export const operatorHomeHandlers: HandlerMap = {
  queryOperatorHome: (_input, ctx) => ctx.services.operatorHome.home(),
};
