import { ApiError } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';

const pending = (): Promise<never> => Promise.reject(new ApiError(9));

export const plantHandlers: HandlerMap = {
  queryPlants: pending,
  queryPlantsInfo: pending,
  webQueryPlants: pending,
  queryPlantInfo: pending,
  queryPlantDeviceStatus: pending,
  queryPlantCurrentData: pending,
  queryPlantDeviceDesignatedInformation: pending,
  queryPlantActiveOuputPowerOneDay: pending,
  queryPlantEnergyMonthPerDay: pending,
  queryPlantEnergyYearPerMonth: pending,
  queryPlantEnergyTotalPerYear: pending,
  queryPlantEnergyDay: pending,
  queryPlantEnergyMonth: pending,
  queryPlantEnergyYear: pending,
  queryPlantEnergyTotal: pending,
  queryPlantActiveOuputPowerCurrent: pending,
  webQueryPlantsMap: pending,
};
