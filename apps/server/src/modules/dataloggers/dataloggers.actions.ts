import { ApiError } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';

const pending = (): Promise<never> => Promise.reject(new ApiError(9));

export const dataloggerHandlers: HandlerMap = {
  webQueryCollectorsEs: pending,
  queryCollectors: pending,
  queryCollectorInfo: pending,
  queryCollectorStatus: pending,
  queryCollectorDevices: pending,
};
