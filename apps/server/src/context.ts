import type { BrandingService } from './modules/branding/branding.service.js';
import type { SelfServiceService } from './modules/selfservice/selfservice.service.js';
import type { UpgradeStrategiesService } from './modules/upgrade-strategies/upgrade-strategies.service.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { DatabaseHandle, Db } from './db/db.js';
import type { SqlDialect } from './db/dialect.js';
import type { DbHandle } from './db/transaction.js';
import type { AuditService } from './modules/audit/audit.service.js';
import type { Keyring } from './security/keyring.js';
import type { AccountsRepository } from './modules/accounts/accounts.repository.js';
import type { AccountsService } from './modules/accounts/accounts.service.js';
import type { AccountAdminService } from './modules/accounts/account-admin.service.js';
import type { SessionsRepository } from './modules/auth/sessions.repository.js';
import type { ThrottleRepository } from './modules/auth/throttle.repository.js';
import type { AuthService } from './modules/auth/auth.service.js';
import type { LoginThrottle } from './modules/auth/throttle.service.js';
import type { ActionLog } from './modules/action-log/action-log.service.js';
import type { CompanyKeysService } from './modules/company-keys/company-keys.service.js';
import type { CustomDomainsService } from './modules/custom-domains/custom-domains.service.js';
import type { VendorCtrlPwdService } from './modules/custom-domains/vendor-ctrl-pwd.service.js';
import type { ManufacturerCodesService } from './modules/manufacturer-codes/manufacturer-codes.service.js';
import type { RechargeCheckoutService } from './modules/recharge-orders/recharge-checkout.service.js';
import type { PaymentsService } from './modules/payments/payments.service.js';
import type { RechargeOrdersService } from './modules/recharge-orders/recharge-orders.service.js';
import type { RechargeRecordsService } from './modules/recharge-records/recharge-records.service.js';
import type { TariffsService } from './modules/tariffs/tariffs.service.js';
import type { IncomeService } from './modules/tariffs/income.service.js';
import type { AccelerationService } from './modules/acceleration/acceleration.service.js';
import type { AccelerationDelivery } from './modules/acceleration/acceleration-delivery.js';
import type { OperatorLogsService } from './modules/operator-logs/operator-logs.service.js';
import type { WebErrorsService } from './modules/web-errors/web-errors.service.js';
import type { ProtocolAdminService } from './modules/protocol-admin/protocol-admin.service.js';
import type { OperatorHomeService } from './modules/operator-home/operator-home.service.js';
import type { ManufacturersService } from './modules/manufacturers/manufacturers.service.js';
import type { TelemetryService } from './modules/telemetry/telemetry.service.js';
import type { BlobStore } from './shared/blob-store.js';
import type { UpgradeEngineService } from './modules/upgrades/upgrade-engine.js';
import type { UpgradesService } from './modules/upgrades/upgrades.service.js';
import type { AccessService } from './access/access.service.js';
import type { PlantsRepository } from './modules/plants/plants.repository.js';
import type { PlantsService } from './modules/plants/plants.service.js';
import type { PlantAdminService } from './modules/plants/plant-admin.service.js';
import type { PlantFleetService } from './modules/plants/plant-fleet.service.js';
import type { PlantImages } from './modules/plants/plant-images.js';
import type { AccountAvatars } from './modules/accounts/avatars.js';
import type { DataloggersRepository } from './modules/dataloggers/dataloggers.repository.js';
import type { DataloggersService } from './modules/dataloggers/dataloggers.service.js';
import type { DevicesRepository } from './modules/devices/devices.repository.js';
import type { DeviceListService } from './modules/devices/device-list.service.js';
import type { DeviceReadsService } from './modules/devices/device-reads.service.js';
import type { DeviceCurvesService } from './modules/devices/device-curves.service.js';
import type { DeviceStatisticsService } from './modules/devices/device-statistics.service.js';
import type { DeviceFollowService } from './modules/devices/device-follow.service.js';
import type { EnergyRepository } from './modules/energy/energy.repository.js';
import type { OverviewService } from './modules/overview/overview.service.js';
import type { GroupsService } from './modules/groups/groups.service.js';
import type { RolesService } from './modules/roles/roles.service.js';
import type { ControlFieldsService } from './modules/roles/control-fields.service.js';
import type { ViewersService } from './modules/viewers/viewers.service.js';
import type { DistributionService } from './modules/distribution/distribution.service.js';
import type { FirmwareService } from './modules/firmware/firmware.service.js';
import type { DataloggerCommands } from './modules/operations/command.service.js';
import type { OperationLog } from './modules/operations/operation-log.service.js';
import type { CollectorAdminService } from './modules/dataloggers/collector-admin.service.js';
import type { DataloggerEvents } from './modules/dataloggers/datalogger-events.service.js';
import type { DeviceOps } from './modules/devices/ops/index.js';
import type { AlarmsService } from './modules/alarms/alarms.service.js';
import type { AlarmRulesService } from './modules/alarms/alarm-rules.service.js';
import type { Reports } from './modules/reports/index.js';
import type { Notifications } from './modules/notifications/index.js';
import type { ProtocolToolsService } from './modules/protocol-tools/protocol-tools.service.js';

/** The authenticated account behind a signed call. */
export interface Caller {
  accountId: number;
  usr: string;
  role: number;
  path: string;
  status: number;
  adminOf: number | null;
  /** Role-2 function permissions; null = unrestricted, never for a sub-administrator (fails closed: `callerHasPermission`). */
  permissions: ReadonlySet<string> | null;
  sessionId: number;
  /** A read-only demo session (experience code): the dispatcher refuses state-changing actions (11). */
  demo?: boolean;
  /** The experience code of a demo session (its token refresh keeps it; expiring the code ends it). */
  invCodeId?: number;
}

/**
 * Everything handlers and services need, passed explicitly (no module singletons).
 * Built once per app in `createContext`.
 */
export interface AppContext {
  config: AppConfig;
  /** The root database. Inside a mutating action, repositories use the action's transaction instead (`dbh`). */
  db: Db;
  /** Transactions by async context: `dbh.transaction(fn)`, `dbh.db` (current executor), `dbh.durable(write)`. */
  dbh: DbHandle;
  dialect: SqlDialect;
  database: DatabaseHandle;
  keyring: Keyring;
  log: FastifyBaseLogger;
  now: () => number;
  /**
   * Issue 13: the blob store of firmware images (`LocalBlobStore` at `<dataDir>/blobs`), shared by
   * the firmware library (writes) and the upgrade engine (reads `firmwares.blob_key`).
   */
  blobs: BlobStore;
  repos: {
    accounts: AccountsRepository;
    sessions: SessionsRepository;
    throttle: ThrottleRepository;
    plants: PlantsRepository;
    dataloggers: DataloggersRepository;
    devices: DevicesRepository;
    energy: EnergyRepository;
  };
  services: {
    /** Issue 13: the firmware library, signing keys and default firmware. */
    firmware: FirmwareService;
    /** Issue 12: server nodes, host branding, platform notice, contact info. */
    branding: BrandingService;
    /**
     * Issue 12: the security notice to the old recovery e-mail or phone (selfservice), for the
     * account-edit actions of other modules (a port: accounts must not import selfservice, which
     * imports accounts).
     */
    contactNotices: Pick<SelfServiceService, 'notifyContactChange'>;
    accounts: AccountsService;
    /** Account management of issue 9 (other accounts: create, edit, enable, delete, lists). */
    accountAdmin: AccountAdminService;
    auth: AuthService;
    throttle: LoginThrottle;
    actionLog: ActionLog;
    /** Who changed what, before → after; written in the mutating action's transaction. */
    audit: AuditService;
    companyKeys: CompanyKeysService;
    /** Issue 14 factoryCode: PN prefix → manufacturer at registration. */
    manufacturerCodes: ManufacturerCodesService;
    /** Issue 14 rechargeRemedy (the order model of issue 15): search, detail, remedy. */
    rechargeOrders: RechargeOrdersService;
    /** Issue 15 rechargeRecord: the caller-scoped recharge records and their export. */
    rechargeRecords: RechargeRecordsService;
    /** Issue 15: effective-dated tariffs with time-of-use periods, and income (docs/money/tariffs.md). */
    tariffs: TariffsService;
    income: IncomeService;
    rechargeCheckout: RechargeCheckoutService;
    payments: PaymentsService;
    /** Issue 15: acceleration orders and the delivery of their interval changes. */
    acceleration: AccelerationService;
    accelerationDelivery: AccelerationDelivery;
    /** Issue 14: the operator's log pages (platform datalogger log, action log) and their retention. */
    operatorLogs: OperatorLogsService;
    /** Issue 16: web error reporting: the collector of the web app's events and the operator's reads. */
    webErrors: WebErrorsService;
    protocolAdmin: ProtocolAdminService;
    /** Issue 14 operator home: platform figures, ingest and action rates, queues. */
    operatorHome: OperatorHomeService;
    /** Issue 14: custom domains (host → entry-page look), read by branding on every request. */
    customDomains: CustomDomainsService;
    /** Issue 14 passwordMaintenance: every manufacturer's device-control password (via deviceOps.pwd). */
    vendorCtrlPwd: VendorCtrlPwdService;
    manufacturers: ManufacturersService;
    telemetry: TelemetryService;
    /** Issue 10: commands to dataloggers over MQTT and their acks (err 263 offline, 2 timeout). */
    commands: DataloggerCommands;
    /** Issue 10: operation history of dataloggers and devices (durable, failures included). */
    operations: OperationLog;
    /** Scope of a caller and bulk access checks of plant / datalogger / device ids. */
    access: AccessService;
    plants: PlantsService;
    /** Issue 10: plant create/edit/delete, energy offset, default project; fleet queries and plant tree; pictures. */
    plantAdmin: PlantAdminService;
    plantFleet: PlantFleetService;
    plantImages: PlantImages;
    /** Issue 12: avatar pictures of accounts (outside the database, like plant pictures). */
    avatars: AccountAvatars;
    dataloggers: DataloggersService;
    /** Issue 10: datalogger management (add, edit, reboot, reset, unbind, delete, debug, log). */
    collectorAdmin: CollectorAdminService;
    /** Issue 10: the datalogger log (connections, heartbeat gaps, commands and their outcome). */
    dataloggerEvents: DataloggerEvents;
    /** Device services split by responsibility, sharing one DeviceResolver. */
    devices: {
      list: DeviceListService;
      reads: DeviceReadsService;
      curves: DeviceCurvesService;
      statistics: DeviceStatisticsService;
      follow: DeviceFollowService;
    };
    overview: OverviewService;
    /** Issue 9: user groups, custom roles, control-field visibility (`controlFieldRights`). */
    groups: GroupsService;
    roles: RolesService;
    controlFields: ControlFieldsService;
    /** Viewer (role 5) sub-accounts and their plants (issue 9). */
    viewers: ViewersService;
    /** Datalogger stock and distribution: single, sheet, order (issue 9). */
    distribution: DistributionService;
    /** Issue 10: device control, control password, edit, helpform tools, report export, operation history. */
    deviceOps: DeviceOps;
    /** Issue 11: alarm lists, counts, 7-day statistics, handling; alarm filter rules (`rulesOf` for the notifier). */
    alarms: AlarmsService;
    alarmRules: AlarmRulesService;
    /** Issue 11: report exports (plant and device energy reports) and their background runner. */
    reports: Reports;
    /** Issue 11: e-mail push subscriptions, alarm mails, the durable mail queue (SMTP or outbox). */
    notifications: Notifications;
    /**
     * Issue 13: the upgrade engine (implements `UpgradeEngine` of modules/upgrades/engine-port.ts;
     * the strategies' rollout job calls `ctx.services.upgradeEngine.start/cancel`).
     */
    upgradeEngine: UpgradeEngineService;
    /** Issue 13: the upgrade actions (vendor four, cancel, device, batch, lists). */
    upgrades: UpgradesService;
    /** Issue 13: upgrade strategies (the rollout job is StrategyRollout, built with the upgrade engine). */
    upgradeStrategies: UpgradeStrategiesService;
    /** Issue 14: the operator's protocol tools (raw-data parsing, definitions) and device functions. */
    protocolTools: ProtocolToolsService;
  };
}
