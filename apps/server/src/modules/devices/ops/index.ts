import type { AccessService } from '../../../access/access.service.js';
import type { Db } from '../../../db/db.js';
import type { DbHandle } from '../../../db/transaction.js';
import type { Keyring } from '../../../security/keyring.js';
import type { AccountsRepository } from '../../accounts/accounts.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { EnergyRepository } from '../../energy/energy.repository.js';
import type { DataloggerCommands } from '../../operations/command.service.js';
import type { OperationLog } from '../../operations/operation-log.service.js';
import { OperationQueryService } from '../../operations/operation-query.service.js';
import type { ControlFieldsService } from '../../roles/control-fields.service.js';
import type { DeviceCurvesService } from '../device-curves.service.js';
import { DeviceResolver } from '../device-resolver.js';
import type { DevicesRepository } from '../devices.repository.js';
import { CtrlPasswordService } from './ctrl-password.service.js';
import { DeviceControlService } from './device-control.service.js';
import { DeviceEditService } from './device-edit.service.js';
import { DeviceTargets } from './device-target.js';
import { DeviceToolsService } from './device-tools.service.js';
import { ReportExportService } from './report-export.service.js';

/** Issue 10 device operations: control, control password, edit, helpform tools, report export, history. */
export interface DeviceOps {
  control: DeviceControlService;
  pwd: CtrlPasswordService;
  edit: DeviceEditService;
  tools: DeviceToolsService;
  reports: ReportExportService;
  history: OperationQueryService;
}

/** Services of the context the device operations use, built before them (read lazily). */
export interface DeviceOpsPeers {
  commands: DataloggerCommands;
  operations: OperationLog;
  controlFields: ControlFieldsService;
  devices: { curves: DeviceCurvesService };
}

export function createDeviceOps(
  base: {
    db: Db;
    dbh: DbHandle;
    keyring: Keyring;
    log: { error(obj: unknown, msg?: string): void };
    now: () => number;
    access: AccessService;
    /** The owner of a device report export, when the reports runner builds it. */
    accounts: Pick<AccountsRepository, 'findById'>;
    audit: AuditService;
    devicesRepo: DevicesRepository;
    energyRepo: EnergyRepository;
  },
  peers: () => DeviceOpsPeers,
): DeviceOps {
  const { db, dbh, now, audit } = base;
  const resolver = new DeviceResolver(base.access, base.devicesRepo);
  const targets = new DeviceTargets({ db, resolver });
  const pwd = new CtrlPasswordService({ db, audit, now });
  const commands = { send: (...a: Parameters<DataloggerCommands['send']>) => peers().commands.send(...a) };
  const operations = { record: (...a: Parameters<OperationLog['record']>) => peers().operations.record(...a) };
  const controlFields = {
    controlFieldRights: (...a: Parameters<ControlFieldsService['controlFieldRights']>) =>
      peers().controlFields.controlFieldRights(...a),
  };
  const curves = {
    dataOneDay: (...a: Parameters<DeviceCurvesService['dataOneDay']>) => peers().devices.curves.dataOneDay(...a),
  };
  return {
    pwd,
    control: new DeviceControlService({ targets, devices: base.devicesRepo, controlFields, commands, operations, pwd }),
    edit: new DeviceEditService({ db, targets, audit, operations, energyRepo: base.energyRepo, now }),
    tools: new DeviceToolsService({ db, targets, devices: base.devicesRepo, commands, operations, now }),
    reports: new ReportExportService({
      db,
      dbh,
      keyring: base.keyring,
      accounts: base.accounts,
      roleFunctions: (id) => base.access.roleFunctions(id),
      audit,
      targets,
      curves,
      devices: base.devicesRepo,
      operations,
      log: base.log,
      now,
    }),
    history: new OperationQueryService({ db, access: base.access, resolver, now }),
  };
}
