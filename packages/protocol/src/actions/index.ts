import * as account from './account.js';
import * as accountsAdmin from './accounts-admin.js';
import * as plants from './plants.js';
import * as plantsAdmin from './plants-admin.js';
import * as dataloggers from './dataloggers.js';
import * as dataloggersAdmin from './dataloggers-admin.js';
import * as devices from './devices.js';
import * as overview from './overview.js';
import * as deviceOps from './device-ops.js';
import * as alarms from './alarms.js';
import * as reports from './reports.js';
import * as alarmExport from './alarm-export.js';
import * as notifications from './notifications.js';
import * as selfservice from './selfservice.js';
import * as entryExtras from './entry-extras.js';
import * as personal from './personal.js';
import * as branding from './branding.js';
import * as upgrades from './upgrades.js';
import * as upgradeStrategies from './upgrade-strategies.js';
import * as firmware from './firmware.js';
import * as protocolTools from './protocol-tools.js';

import * as companyKeys from './company-keys.js';
import * as manufacturerCodes from './manufacturer-codes.js';
import * as rechargeOrders from './recharge-orders.js';
import * as rechargeRecords from './recharge-records.js';
import * as tariffs from './tariffs.js';
import * as payments from './payments.js';
import * as acceleration from './acceleration.js';

import * as operatorLogs from './operator-logs.js';
import * as protocolAdmin from './protocol-admin.js';
import * as operatorHome from './operator-home.js';
import * as customDomains from './custom-domains.js';
import * as manufacturers from './manufacturers.js';
import * as webErrors from './web-errors.js';
import type { ActionDef } from './define.js';

/**
 * The action catalogue: every action the platform serves, declared once. The server
 * registers one handler per entry (a missing handler fails a test); the web client is
 * typed from it.
 */
export const catalogue = {
  ...account,
  ...accountsAdmin,
  ...plants,
  ...plantsAdmin,
  ...dataloggers,
  ...dataloggersAdmin,
  ...devices,
  ...overview,
  ...deviceOps,
  ...alarms,
  ...reports,
  ...alarmExport,
  ...notifications,
  ...selfservice,
  ...entryExtras,
  ...personal,
  ...branding,
  ...upgrades,
  ...upgradeStrategies,
  ...firmware,
  ...protocolTools,

  ...companyKeys,
  ...manufacturerCodes,
  ...rechargeOrders,
  ...rechargeRecords,
  ...tariffs,
  ...payments,
  ...acceleration,

  ...operatorLogs,
  ...protocolAdmin,
  ...operatorHome,
  ...customDomains,
  ...manufacturers,
  ...webErrors,
} as const;

export type Catalogue = typeof catalogue;
export type ActionName = keyof Catalogue;
export const ACTION_NAMES = Object.keys(catalogue) as ActionName[];

export function findAction(name: string): ActionDef | undefined {
  return Object.prototype.hasOwnProperty.call(catalogue, name)
    ? (catalogue as Record<string, ActionDef>)[name]
    : undefined;
}

export * from './define.js';
export * from './common.js';
export type { AuthDat, AccountInfoDat } from './account.js';
export type * from './accounts-admin.js';
export * from './telemetry-params.js';
export type * from './plants.js';
export type * from './upgrades.js';
export type { FirmwareRow, FirmwareKeyRow, DefaultFirmwareRow } from './firmware.js';
export * from './firmware-params.js';
export type * from './protocol-tools.js';
export * from './protocol-tools-params.js';
export type * from './plants-admin.js';
export type * from './dataloggers.js';
export type * from './dataloggers-admin.js';
export * from './dataloggers-admin-params.js';
export type * from './devices.js';
export type * from './overview.js';
export type * from './device-ops.js';
export * from './device-ops-params.js';
export type * from './alarms.js';
export type * from './reports.js';
export * from './alarm-export-params.js';
export * from './report-history-params.js';
export type * from './notifications.js';
export * from './notifications-params.js';
export * from './selfservice-params.js';
export type * from './entry-extras.js';
export * from './entry-extras-params.js';
export * from './personal-params.js';
export type * from './branding.js';
export * from './branding-params.js';
export type * from './upgrade-strategies.js';
export * from './upgrade-strategies-params.js';
export type * from './company-keys.js';
export type * from './manufacturer-codes.js';
export type * from './recharge-orders.js';
export type * from './recharge-records.js';
export * from './recharge-records-params.js';
export type * from './tariffs.js';
export type * from './payments.js';
export type * from './acceleration.js';
export type * from './protocol-admin.js';
export * from './protocol-admin-params.js';
export type * from './operator-home.js';
export type * from './manufacturers.js';
export * from './company-keys-params.js';
export type * from './operator-logs.js';
export * from './operator-logs-params.js';
export type * from './custom-domains.js';
export * from './custom-domains-params.js';
export type * from './web-errors.js';
export * from './web-errors-params.js';
export { ACTION_AUTH, actionAuth } from './auth.js';
export { KEEP_EMPTY_VALUES } from './empty-values.js';
