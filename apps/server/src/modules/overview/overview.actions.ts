import { ApiError } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';

const pending = (): Promise<never> => Promise.reject(new ApiError(9));

export const overviewHandlers: HandlerMap = {
  webQueryFleetOverview: pending,
};
