import { ApiError } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';

const pending = (): Promise<never> => Promise.reject(new ApiError(9));

export const deviceHandlers: HandlerMap = {
  webQueryDeviceEs: pending,
  queryDeviceInfo: pending,
  queryDeviceStatus: pending,
  queryDeviceLastData: pending,
  querySPDeviceLastData: pending,
  webQueryDeviceEnergyFlowEs: pending,
  queryDeviceParsEs: pending,
  queryDeviceChartsFieldsEs: pending,
  querySPKeyParameters: pending,
  queryDeviceRealLastData: pending,
  queryDeviceChartFieldDetailData: pending,
  querySPDeviceKeyParameterOneDay: pending,
  queryDeviceDataOneDay: pending,
  queryDeviceDataOneDayPaging: pending,
  queryPlantDeviceChartsFieldsByType: pending,
  queryDeviceActiveOuputPowerOneDay24Hour: pending,
  webQueryDeviceStatistic: pending,
  webQueryDeviceEnergyChart: pending,
  webQueryDeviceParamCurves: pending,
  focusDevice: pending,
  unfocusDevice: pending,
};
