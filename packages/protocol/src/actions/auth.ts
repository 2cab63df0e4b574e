/**
 * How each action is called (`access.auth` of the catalogue), as a table of its own: the client
 * needs only this at run time, and importing the catalogue would bring every action's zod
 * schemas into the web's entry page (issue 8, first load ≤ 200 KB). The type below makes the
 * compiler check the table against the catalogue (every action, the same kind), and
 * `auth.test.ts` checks the values at run time.
 */
import type { AuthKind } from './define.js';
import type { ActionName, Catalogue } from './index.js';

export const ACTION_AUTH = {
  auth: 'login',
  authByRememberToken: 'public',
  authSource: 'login',
  logout: 'signed',
  logoutVerifiction: 'signed',
  queryAccountInfo: 'signed',
  updatePassword: 'signed',
  updateToken: 'signed',
  queryPlantActiveOuputPowerCurrent: 'signed',
  queryPlantActiveOuputPowerOneDay: 'signed',
  queryPlantCurrentData: 'signed',
  queryPlantDeviceDesignatedInformation: 'signed',
  queryPlantDeviceStatus: 'signed',
  queryPlantEnergyDay: 'signed',
  queryPlantEnergyMonth: 'signed',
  queryPlantEnergyMonthPerDay: 'signed',
  queryPlantEnergyTotal: 'signed',
  queryPlantEnergyTotalPerYear: 'signed',
  queryPlantEnergyYear: 'signed',
  queryPlantEnergyYearPerMonth: 'signed',
  queryPlantInfo: 'signed',
  queryPlants: 'signed',
  queryPlantsInfo: 'signed',
  webQueryPlants: 'signed',
  webQueryPlantsMap: 'signed',
  queryCollectorDevices: 'signed',
  queryCollectorInfo: 'signed',
  queryCollectorStatus: 'signed',
  queryCollectors: 'signed',
  webQueryCollectorsEs: 'signed',
  focusDevice: 'signed',
  queryDeviceActiveOuputPowerOneDay24Hour: 'signed',
  queryDeviceChartFieldDetailData: 'signed',
  queryDeviceChartsFieldsEs: 'signed',
  queryDeviceDataOneDay: 'signed',
  queryDeviceDataOneDayPaging: 'signed',
  queryDeviceInfo: 'signed',
  queryDeviceLastData: 'signed',
  queryDeviceParsEs: 'signed',
  queryDeviceRealLastData: 'signed',
  queryDeviceStatus: 'signed',
  queryPlantDeviceChartsFieldsByType: 'signed',
  querySPDeviceKeyParameterOneDay: 'signed',
  querySPDeviceLastData: 'signed',
  querySPKeyParameters: 'signed',
  unfocusDevice: 'signed',
  webQueryDeviceEnergyChart: 'signed',
  webQueryDeviceEnergyFlowEs: 'signed',
  webQueryDeviceEs: 'signed',
  webQueryDeviceParamCurves: 'signed',
  webQueryDeviceStatistic: 'signed',
  webQueryFleetOverview: 'signed',
} as const satisfies { readonly [N in ActionName]: Catalogue[N]['access']['auth'] };

export function actionAuth(name: ActionName): AuthKind {
  return ACTION_AUTH[name];
}
