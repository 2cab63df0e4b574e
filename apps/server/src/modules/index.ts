import type { HandlerMap } from '../http/registry.js';
import { accountHandlers } from './accounts/accounts.actions.js';
import { authHandlers } from './auth/auth.actions.js';

/** Every action handler, by catalogue name. `handlers.test.ts` checks none is missing. */
export const handlers: HandlerMap = {
  ...authHandlers,
  ...accountHandlers,
};
