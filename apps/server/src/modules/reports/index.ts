import type { Db } from '../../db/db.js';
import type { RoleFunctionsReader } from '../../access/permissions.js';
import type { DbHandle } from '../../db/transaction.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Keyring } from '../../security/keyring.js';
import type { AccountsRepository } from '../accounts/accounts.repository.js';
import type { DeviceCurvesService } from '../devices/device-curves.service.js';
import type { DeviceResolver } from '../devices/device-resolver.js';
import type { EnergyRepository } from '../energy/energy.repository.js';
import type { PlantsService } from '../plants/plants.service.js';
import { ReportBuilder } from './report-builder.js';
import { ReportFilesService } from './report-files.service.js';
import { ReportRunner } from './report-runner.js';
import { ReportMailScheduler } from './report-mails.js';
import type { Notifications } from '../notifications/index.js';
import type { AlarmsService } from '../alarms/alarms.service.js';
import { AlarmExportService } from './alarm-export.js';
import type { PlantIncomeSource } from '../../shared/plant-income.js';
import type { LeasedQueue } from '../../db/job-lease.js';

/** Issue 11 reports and exports: the files (requests, list, download) and their background runner. */
export interface Reports {
  files: ReportFilesService;
  builder: ReportBuilder;
  runner: ReportRunner;
  /** Report mails of the e-mail push subscriptions (run by the `report-mails` job). */
  mails: ReportMailScheduler;
  /** The alarm list export (`exportPlantsWarning`), a job kind of the same runner. */
  alarmExport: AlarmExportService;
}

export function createReports(
  base: {
    db: Db;
    dbh: DbHandle;
    audit: AuditService;
    keyring: Keyring;
    dataDir: string;
    accounts: AccountsRepository;
    /** The function points of an owner's bound role (access.roleFunctions). */
    roleFunctions: RoleFunctionsReader;
    energyRepo: EnergyRepository;
    resolver: DeviceResolver;
    log: { error(obj: unknown, msg?: string): void };
    now: () => number;
  },
  peers: () => {
    plants: PlantsService;
    devices: { curves: DeviceCurvesService };
    notifications: Notifications;
    alarms: AlarmsService;
    /** Issue 10's device report exports: a job kind of the same runner. */
    deviceOps: { reports: LeasedQueue };
    /** Issue 13's fleet-sized upgrade batches (their materialisation): a job kind of the same runner. */
    upgrades: { batches: LeasedQueue };
    /** Issue 15: the income of each report bucket on the tariff path. */
    income?: Pick<PlantIncomeSource, 'buckets'>;
  },
): Reports {
  const builder = new ReportBuilder({
    energy: base.energyRepo,
    curves: () => peers().devices.curves,
    now: base.now,
    income: () => peers().income,
  });
  const files: ReportFilesService = new ReportFilesService({
    db: base.db,
    dbh: base.dbh,
    audit: base.audit,
    keyring: base.keyring,
    dataDir: base.dataDir,
    plants: () => peers().plants,
    resolver: base.resolver,
    accounts: base.accounts,
    roleFunctions: base.roleFunctions,
    builder,
    alarmExport: () => alarmExport,
    log: base.log,
    now: base.now,
  });
  const alarmExport: AlarmExportService = new AlarmExportService({
    alarms: () => peers().alarms,
    plants: () => peers().plants,
    files,
    now: base.now,
  });
  const mails = new ReportMailScheduler({
    db: base.db,
    files,
    queue: () => peers().notifications.queue,
    sending: () => peers().notifications.sender.enabled,
    now: base.now,
    log: base.log,
  });
  return { files, builder, runner: new ReportRunner(() => [files, peers().deviceOps.reports, peers().upgrades.batches], base.log), mails, alarmExport };
}
