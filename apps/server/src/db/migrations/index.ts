import type { Migration, MigrationProvider } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import { foundation } from './0001-foundation.js';
import { telemetry } from './0002-telemetry.js';
import { ingest } from './0003-ingest.js';
import { signReplay } from './0004-sign-replay.js';
import { audit } from './0005-audit.js';
import { roles } from './0007-roles.js';
import { distribution } from './0008-distribution.js';
import { operations } from './0009-operations.js';
import { plantsAdmin } from './0010-plants-admin.js';
import { dataloggerAdmin } from './0011-datalogger-admin.js';
import { deviceOps } from './0012-device-ops.js';
import { alarms } from './0014-alarms.js';
import { notifications } from './0015-notifications.js';
import { reports } from './0016-reports.js';
import { mailOnce } from './0017-mail-once.js';
import { alarmOwner } from './0018-alarm-owner.js';
import { selfservice } from './0019-selfservice.js';
import { entryExtras } from './0020-entry-extras.js';
import { branding } from './0021-branding.js';
import { firmware } from './0022-firmware.js';
import { upgradeTaskPerDatalogger } from './0023-upgrade-task-per-datalogger.js';
import { plantFunctionPoints } from './0024-plant-function-points.js';
import { deviceExportLease } from './0025-device-export-lease.js';
import { demoSessionCode } from './0026-demo-session-code.js';
import { upgradeBatchJobs } from './0027-upgrade-batch-jobs.js';
import { strategyFilter } from './0028-strategy-filter.js';
import { companyKeys } from './0029-company-keys.js';
import { manufacturerCodes } from './0030-manufacturer-codes.js';
import { ingestMinutes } from './0031-ingest-minutes.js';
import { platformSettings } from './0032-platform-settings.js';
import { manufacturers } from './0033-manufacturers.js';
import { protocolBindings } from './0034-protocol-bindings.js';
import { customDomains } from './0036-custom-domains.js';
import { rechargeOrders } from './0037-recharge-orders.js';
import { samplePartitions } from './0044-sample-partitions.js';
import { tariffs } from './0038-tariffs.js';
import { flowCards } from './0039-flow-cards.js';
import { payments } from './0040-payments.js';
import { accelerationOrders } from './0041-acceleration-orders.js';
import { authEpoch } from './0043-auth-epoch.js';
import { webEvents } from './0045-web-events.js';
import { accountRowEpoch } from './0049-account-row-epoch.js';

/** One set of migrations for both engines, provided in code (no file-system scan). */
export function migrationProvider(dialect: SqlDialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-foundation': foundation(dialect),
    '0002-telemetry': telemetry(dialect),
    '0003-ingest': ingest(dialect),
    '0004-sign-replay': signReplay(dialect),
    '0005-audit': audit(dialect),
    '0007-roles': roles(dialect),
    '0008-distribution': distribution(dialect),
    '0009-operations': operations(dialect),
    '0010-plants-admin': plantsAdmin(dialect),
    '0011-datalogger-admin': dataloggerAdmin(dialect),
    '0012-device-ops': deviceOps(dialect),
    '0014-alarms': alarms(dialect),
    '0015-notifications': notifications(dialect),
    '0016-reports': reports(dialect),
    '0017-mail-once': mailOnce(),
    '0018-alarm-owner': alarmOwner(dialect),
    '0019-selfservice': selfservice(dialect),
    '0020-entry-extras': entryExtras(dialect),
    '0021-branding': branding(dialect),
    '0022-firmware': firmware(dialect),
    '0023-upgrade-task-per-datalogger': upgradeTaskPerDatalogger(),
    '0024-plant-function-points': plantFunctionPoints(),
    '0025-device-export-lease': deviceExportLease(dialect),
    '0026-demo-session-code': demoSessionCode(),
    '0027-upgrade-batch-jobs': upgradeBatchJobs(dialect),
    '0028-strategy-filter': strategyFilter(dialect),
    '0029-company-keys': companyKeys(dialect),
    '0030-manufacturer-codes': manufacturerCodes(dialect),
    '0031-ingest-minutes': ingestMinutes(dialect),
    '0032-platform-settings': platformSettings(dialect),
    '0033-manufacturers': manufacturers(dialect),
    '0034-protocol-bindings': protocolBindings(dialect),
    '0036-custom-domains': customDomains(dialect),
    '0037-recharge-orders': rechargeOrders(dialect),
    '0044-sample-partitions': samplePartitions(dialect),
    '0038-tariffs': tariffs(dialect),
    '0039-flow-cards': flowCards(dialect),
    '0040-payments': payments(dialect),
    '0041-acceleration-orders': accelerationOrders(dialect),
    '0043-auth-epoch': authEpoch(dialect),
    '0045-web-events': webEvents(dialect),
    '0049-account-row-epoch': accountRowEpoch(dialect),
  };
  return { getMigrations: () => Promise.resolve(migrations) };
}
