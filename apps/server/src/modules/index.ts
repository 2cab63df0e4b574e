import type { HandlerMap } from '../http/registry.js';
import { accountHandlers } from './accounts/accounts.actions.js';
import { accountAdminHandlers } from './accounts/account-admin.actions.js';
import { authHandlers } from './auth/auth.actions.js';
import { dataloggerHandlers } from './dataloggers/dataloggers.actions.js';
import { collectorAdminHandlers } from './dataloggers/collector-admin.actions.js';
import { distributionHandlers } from './distribution/distribution.actions.js';
import { deviceHandlers } from './devices/devices.actions.js';
import { deviceOpsHandlers } from './devices/device-ops.actions.js';
import { reportHandlers } from './reports/reports.actions.js';
import { overviewHandlers } from './overview/overview.actions.js';
import { plantHandlers } from './plants/plants.actions.js';
import { plantAdminHandlers } from './plants/plants-admin.actions.js';
import { groupHandlers } from './groups/groups.actions.js';
import { roleHandlers } from './roles/roles.actions.js';
import { viewerHandlers } from './viewers/viewers.actions.js';
import { alarmHandlers } from './alarms/alarms.actions.js';
import { notificationHandlers } from './notifications/notifications.actions.js';
import { selfServiceHandlers } from './selfservice/selfservice.actions.js';
import { entryExtrasHandlers } from './entry-extras/entry-extras.actions.js';
import { brandingHandlers } from './branding/branding.actions.js';
import { upgradeStrategyHandlers } from './upgrade-strategies/upgrade-strategies.actions.js';
import { firmwareHandlers } from './firmware/firmware.actions.js';
import { upgradeHandlers } from './upgrades/upgrades.actions.js';
import { protocolToolsHandlers } from './protocol-tools/protocol-tools.actions.js';

import { companyKeyHandlers } from './company-keys/company-keys.actions.js';
import { manufacturerCodeHandlers } from './manufacturer-codes/manufacturer-codes.actions.js';
import { rechargeRecordHandlers } from './recharge-records/recharge-records.actions.js';
import { tariffHandlers } from './tariffs/tariffs.actions.js';
import { rechargeCheckoutHandlers, rechargeOrderHandlers } from './recharge-orders/recharge-orders.actions.js';
import { paymentHandlers } from './payments/payments.actions.js';
import { accelerationHandlers } from './acceleration/acceleration.actions.js';

import { operatorLogHandlers } from './operator-logs/operator-logs.actions.js';
import { protocolAdminHandlers } from './protocol-admin/protocol-admin.actions.js';
import { operatorHomeHandlers } from './operator-home/operator-home.actions.js';
import { customDomainHandlers } from './custom-domains/custom-domains.actions.js';
import { manufacturerHandlers } from './manufacturers/manufacturers.actions.js';
import { webErrorHandlers } from './web-errors/web-errors.actions.js';

/** Every action handler, by catalogue name. `handlers.test.ts` checks none is missing. */
export const handlers: HandlerMap = {
  ...authHandlers,
  ...accountHandlers,
  ...accountAdminHandlers,
  ...plantHandlers,
  ...plantAdminHandlers,
  ...dataloggerHandlers,
  ...collectorAdminHandlers,
  ...deviceHandlers,
  ...overviewHandlers,
  ...groupHandlers,
  ...roleHandlers,
  ...viewerHandlers,
  ...distributionHandlers,
  ...deviceOpsHandlers,
  ...alarmHandlers,
  ...reportHandlers,
  ...notificationHandlers,
  ...selfServiceHandlers,
  ...entryExtrasHandlers,
  ...brandingHandlers,
  ...upgradeStrategyHandlers,
  ...firmwareHandlers,
  ...upgradeHandlers,
  ...protocolToolsHandlers,

  ...companyKeyHandlers,
  ...manufacturerCodeHandlers,
  ...rechargeOrderHandlers,
  ...rechargeRecordHandlers,
  ...tariffHandlers,
  ...rechargeCheckoutHandlers,
  ...paymentHandlers,
  ...accelerationHandlers,

  ...operatorLogHandlers,
  ...protocolAdminHandlers,
  ...operatorHomeHandlers,
  ...customDomainHandlers,
  ...manufacturerHandlers,
  ...webErrorHandlers,
};
