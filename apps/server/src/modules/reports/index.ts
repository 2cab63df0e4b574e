import type { Db } from '../../db/db.js';
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

/** Issue 11 reports and exports: the files (requests, list, download) and their background runner. */
export interface Reports {
  files: ReportFilesService;
  builder: ReportBuilder;
  runner: ReportRunner;
}

export function createReports(
  base: {
    db: Db;
    dbh: DbHandle;
    audit: AuditService;
    keyring: Keyring;
    dataDir: string;
    accounts: AccountsRepository;
    energyRepo: EnergyRepository;
    resolver: DeviceResolver;
    log: { error(obj: unknown, msg?: string): void };
    now: () => number;
  },
  peers: () => { plants: PlantsService; devices: { curves: DeviceCurvesService } },
): Reports {
  const builder = new ReportBuilder({ energy: base.energyRepo, curves: () => peers().devices.curves, now: base.now });
  const files = new ReportFilesService({
    db: base.db,
    dbh: base.dbh,
    audit: base.audit,
    keyring: base.keyring,
    dataDir: base.dataDir,
    plants: () => peers().plants,
    resolver: base.resolver,
    accounts: base.accounts,
    builder,
    log: base.log,
    now: base.now,
  });
  return { files, builder, runner: new ReportRunner(files, base.log) };
}
