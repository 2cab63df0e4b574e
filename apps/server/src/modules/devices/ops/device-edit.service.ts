import { ApiError, type EnergyCounterName, type KeyParameterTotal } from '@sunwatch/protocol';
import type { Caller } from '../../../context.js';
import type { Db } from '../../../db/db.js';
import { currentDb } from '../../../db/transaction.js';
import { localDay } from '../../../shared/local-time.js';
import { num4 } from '../../../shared/wire-format.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { EnergyRepository } from '../../energy/energy.repository.js';
import type { OperationLog } from '../../operations/operation-log.service.js';
import { deviceTz, type DeviceKey } from '../devices.repository.js';
import type { DeviceTargets } from './device-target.js';

/** querySPDeviceKeyParameterTotalPerYear parameter → the device's cumulative energy counter. */
export const KEY_TOTAL_KIND: Record<KeyParameterTotal, EnergyCounterName> = {
  BATTERY_ENERGY_TOTAL_DISCHARGE: 'discharged',
  BATTERY_ENERGY_TOTAL_CHARGE: 'charged',
  LOAD_ENERGY_TOTAL: 'used',
  ENERGY_TOTAL_TO_GRID: 'sold',
  ENERGY_TOTAL_FROM_GRID: 'bought',
  PV_ENERGY_TOTAL: 'generated',
};

/**
 * Device info operations (vendor chapter 5): editDeviceInfo (alias), delDeviceFromPlant, and the
 * yearly key-parameter totals of DM chapter 14.
 */
export class DeviceEditService {
  constructor(
    private readonly deps: {
      db: Db;
      targets: DeviceTargets;
      audit: AuditService;
      operations: Pick<OperationLog, 'record'>;
      energyRepo: Pick<EnergyRepository, 'series' | 'firstDay'>;
      now: () => number;
    },
  ) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  /**
   * editDeviceInfo: the alias (trimmed, ≤ 64; "" clears it). No alias given, or the same as now →
   * 271 (ERR_NONE_OPERATION, "no modification requested").
   */
  async edit(caller: Caller, p: DeviceKey & { alias?: string | undefined }): Promise<void> {
    const t = await this.deps.targets.forWrite(caller, p);
    if (p.alias === undefined) throw new ApiError(271);
    const alias = p.alias.trim();
    if ([...alias].some((ch) => ch.charCodeAt(0) < 0x20)) throw new ApiError(6, 'alias');
    if (alias === t.row.alias) throw new ApiError(271);
    const res = await this.db.updateTable('devices').set({ alias }).where('id', '=', t.row.id).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(1);
    await this.deps.audit.record({ entity: 'device', entityId: t.row.id, before: { alias: t.row.alias }, after: { alias } });
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'editDeviceInfo',
      pn: t.row.pn,
      device: t.tuple,
      kind: 'edit',
      target: 'alias',
      before: t.row.alias,
      after: alias,
      result: 0,
    });
  }

  /**
   * delDeviceFromPlant: the device leaves its plant (plant figures no longer count it; its data
   * and its datalogger stay, the datalogger's owner still sees it). Not in a plant → 271.
   */
  async removeFromPlant(caller: Caller, p: DeviceKey): Promise<void> {
    const t = await this.deps.targets.forWrite(caller, p);
    if (t.row.project_id === null) throw new ApiError(271);
    await this.db.updateTable('devices').set({ project_id: null }).where('id', '=', t.row.id).execute();
    await this.deps.audit.record({
      entity: 'device',
      entityId: t.row.id,
      before: { project_id: t.row.project_id },
      after: { project_id: null },
    });
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'delDeviceFromPlant',
      pn: t.row.pn,
      device: t.tuple,
      kind: 'delete',
      target: 'plant',
      before: { pid: t.row.project_id, pname: t.row.pname },
      after: null,
      result: 0,
    });
  }

  /**
   * querySPDeviceKeyParameterTotalPerYear: the energy of the counter per local year from the
   * device's first year with data to this year, `"0.0000"` for years without data. err 6 when the
   * device has no such counter, 12 when it has no data at all.
   */
  async totalPerYear(
    caller: Caller,
    p: DeviceKey & { parameter: KeyParameterTotal },
  ): Promise<{ option: Array<{ val: string; gts: string }> }> {
    const t = await this.deps.targets.find(caller, p);
    const kind = KEY_TOTAL_KIND[p.parameter];
    if (t.def.energy[kind] === undefined) throw new ApiError(6, 'parameter');
    const first = await this.deps.energyRepo.firstDay(t.row.id);
    if (first === undefined) throw new ApiError(12);
    const y0 = Math.floor(first / 10000);
    const y1 = Math.max(y0, Math.floor(localDay(this.deps.now(), deviceTz(t.row)) / 10000));
    const m = await this.deps.energyRepo.series(kind, { deviceIds: [t.row.id] }, y0 * 10000 + 101, y1 * 10000 + 1231, 'year');
    const option: Array<{ val: string; gts: string }> = [];
    for (let y = y0; y <= y1; y++) option.push({ val: num4(m.get(y) ?? 0), gts: String(y) });
    return { option };
  }
}
