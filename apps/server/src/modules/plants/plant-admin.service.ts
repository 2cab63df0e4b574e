import { ApiError, ROLE, type Catalogue, type ParsedParamsOf } from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { AccountsRepository } from '../accounts/accounts.repository.js';
import type { AuditService } from '../audit/audit.service.js';
import { fmtTs, parseLocal } from '../../shared/local-time.js';
import type { PlantAdminRepository, ProjectInsert, ProjectPatch } from './plant-admin.repository.js';
import type { PlantPictureDiscard } from './plant-images.js';
import type { PlantRow } from './plants.repository.js';
import type { PlantsService } from './plants.service.js';

type Params<N extends keyof Catalogue> = ParsedParamsOf<Catalogue[N]>;
type EditParams = Params<'editPlant'>;

export interface PlantAdminDeps {
  repo: PlantAdminRepository;
  plants: Pick<PlantsService, 'require'>;
  access: Pick<AccessService, 'scopeOf'>;
  accounts: Pick<AccountsRepository, 'scopeOf' | 'findInScope'>;
  audit: Pick<AuditService, 'record'>;
  now: () => number;
  /** Removes the picture files a write dropped (replaced, cleared, deleted plant); none when absent. */
  pictures?: PlantPictureDiscard;
  /**
   * Issue 15: editPlant changed prices or currency (`after`: the changed columns); a new tariff from
   * now is written (docs/money/tariffs.md). Called before the plant row changes.
   */
  pricesEdited?: (caller: Caller, row: PlantRow, after: Record<string, unknown>) => Promise<void>;
}

/** The columns a plant's tariff mirrors: a change through editPlant starts a new tariff (issue 15). */
const PRICE_COLUMNS = ['currency', 'unit_profit', 'price_sell', 'price_self', 'price_buy', 'price_use', 'price_feed'];

/** The picture columns whose old files go when a write changes them. */
const PICTURE_COLUMNS = ['image', 'image_small'] as const;

/** Wire parameter → projects column, for the fields addPlant and editPlant share. */
const TEXT_COLUMNS = {
  'address.country': 'country',
  'address.province': 'province',
  'address.city': 'city',
  'address.county': 'county',
  'address.town': 'district',
  'address.village': 'village',
  'address.address': 'address',
  'profit.currencyCountry': 'currency_country',
  designCompany: 'design_company',
  picBig: 'image',
  picSmall: 'image_small',
  remark: 'remark',
  installer: 'installer',
} as const satisfies Record<string, keyof ProjectInsert>;

const NUMBER_COLUMNS = {
  'profit.unitProfit': 'unit_profit',
  'profit.coal': 'coal_factor',
  'profit.co2': 'co2_factor',
  'profit.so2': 'so2_factor',
  'profit.soldProfit': 'price_sell',
  'profit.selfProfit': 'price_self',
  'profit.purchProfit': 'price_buy',
  'profit.consProfit': 'price_use',
  'profit.feedProfit': 'price_feed',
  nominalPower: 'nominal_power',
  energyYearEstimate: 'energy_year_estimate',
} as const satisfies Record<string, keyof ProjectInsert>;

type FieldParams = Partial<Record<keyof typeof TEXT_COLUMNS | keyof typeof NUMBER_COLUMNS, unknown>> & {
  'address.lon'?: number | '' | undefined;
  'address.lat'?: number | '' | undefined;
  'profit.currency'?: string | undefined;
  install?: string | undefined;
};

/** The column values a call's passed parameters set (absent parameters are left out). */
export function plantColumns(p: FieldParams, tz: number): ProjectPatch {
  const out: ProjectPatch = {};
  const set = out as Record<string, unknown>;
  for (const [param, col] of Object.entries(TEXT_COLUMNS)) {
    const v = p[param as keyof FieldParams];
    if (v !== undefined) set[col] = String(v);
  }
  for (const [param, col] of Object.entries(NUMBER_COLUMNS)) {
    const v = p[param as keyof FieldParams];
    if (v !== undefined) set[col] = Number(v);
  }
  if (p['address.lon'] !== undefined) out.lon = p['address.lon'] === '' ? null : p['address.lon'];
  if (p['address.lat'] !== undefined) out.lat = p['address.lat'] === '' ? null : p['address.lat'];
  if (p['profit.currency'] !== undefined) out.currency = p['profit.currency'];
  if (p.install !== undefined) out.install_at = p.install === '' ? null : parseLocal(p.install, tz);
  // A picture and its thumbnail go together: a new picture without a thumbnail uses itself.
  if (out.image !== undefined && out.image_small === undefined) out.image_small = out.image === '' ? '' : out.image;
  return out;
}

/** The audited view of a plant row: its columns, with the install date readable. */
function auditView(row: Record<string, unknown>, tz: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  delete out.owner_usr;
  delete out.status;
  if (typeof row.install_at === 'number') out.install_at = fmtTs(row.install_at, tz);
  return out;
}

/**
 * Plant (project) management of issue 10: create, edit, delete, energy offset, the default
 * project. Who may write: the plant's owner, or an administrator whose scope holds it (the
 * catalogue's `roles` keeps group accounts and viewers out); a plant outside the caller's
 * scope answers 260 exactly like a missing one.
 *
 * Default project: one per owner; an owner's first plant is its default; making another the
 * default clears the old one; deleting the default moves it to the owner's oldest remaining plant.
 */
export class PlantAdminService {
  constructor(private readonly deps: PlantAdminDeps) {}

  /** The owner a new plant belongs to: the caller (owner), or `uid` in the caller's tree (administrators). */
  private async ownerFor(caller: Caller, uid: number | undefined): Promise<number> {
    if (caller.role === ROLE.OWNER) {
      if (uid !== undefined && uid !== caller.accountId) throw new ApiError(11);
      return caller.accountId;
    }
    if (uid === undefined) throw new ApiError(7, 'uid');
    const scope = await this.deps.accounts.scopeOf({
      id: caller.accountId,
      role: caller.role,
      path: caller.path,
      adminOf: caller.adminOf,
    });
    const target = await this.deps.accounts.findInScope(scope, uid);
    if (!target) throw new ApiError(11);
    if (target.role !== ROLE.OWNER) throw new ApiError(6, 'uid');
    return target.id;
  }

  async add(caller: Caller, p: Params<'addPlant'>): Promise<{ pid: number }> {
    const ownerId = await this.ownerFor(caller, p.uid);
    const tz = p['address.timezone'];
    const now = this.deps.now();
    const existing = await this.deps.repo.ownerPlants(ownerId);
    const first = existing.length === 0;
    const cols = plantColumns(p, tz);
    const values: ProjectInsert = {
      owner_id: ownerId,
      name: p.name,
      remark: '',
      image: '',
      is_default: first ? 1 : 0,
      country: '',
      province: '',
      city: '',
      county: '',
      district: '',
      address: '',
      tz_offset: tz,
      nominal_power: 0,
      install_at: now,
      installer: '',
      design_company: '',
      energy_year_estimate: 0,
      energy_offset: 0,
      currency: 'EUR',
      unit_profit: 0,
      price_buy: 0,
      price_sell: 0,
      price_use: 0,
      coal_factor: 0.4,
      co2_factor: 0.997,
      so2_factor: 0.03,
      created_at: now,
      updated_at: now,
    };
    Object.assign(values, cols);
    const pid = await this.deps.repo.insert(values);
    if (!first && p.isDefault === true) await this.deps.repo.makeDefault(ownerId, pid, now);
    await this.deps.audit.record({ entity: 'plant', entityId: pid, before: null, after: auditView({ ...values }, tz) });
    return { pid };
  }

  async edit(caller: Caller, p: EditParams): Promise<void> {
    const row = await this.deps.plants.require(caller, p.plantid);
    const tz = row.tz_offset;
    if (p['address.timezone'] !== undefined && p['address.timezone'] !== tz) {
      // The time zone is fixed at creation (vendor addPlant): the plant's days are bucketed by it.
      throw new ApiError(6, 'address.timezone');
    }
    const wanted: ProjectPatch = { ...plantColumns(p, tz) };
    if (p.name !== undefined) wanted.name = p.name;
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const current = row as unknown as Record<string, unknown>;
    for (const [col, value] of Object.entries(wanted)) {
      const old = current[col];
      const same =
        typeof value === 'number' && old !== null && old !== undefined ? Number(old) === value : (old ?? null) === (value ?? null);
      if (same) continue;
      before[col] = old;
      after[col] = value;
    }
    const makeDefault = p.isDefault === true && row.is_default !== 1;
    if (Object.keys(after).length === 0 && !makeDefault) throw new ApiError(271);
    const now = this.deps.now();
    if (PRICE_COLUMNS.some((c) => c in after)) await this.deps.pricesEdited?.(caller, row, after);
    if (Object.keys(after).length > 0) await this.deps.repo.update(row.id, { ...(after as ProjectPatch), updated_at: now });
    if (makeDefault) {
      await this.deps.repo.makeDefault(row.owner_id, row.id, now);
      before.is_default = 0;
      after.is_default = 1;
    }
    await this.deps.audit.record({
      entity: 'plant',
      entityId: row.id,
      before: auditView(before, tz),
      after: auditView(after, tz),
    });
    // A replaced or cleared picture: its files go once this write has committed.
    const dropped = PICTURE_COLUMNS.filter((c) => c in after).map((c) => row[c]);
    await this.deps.pictures?.discard(dropped);
  }

  async remove(caller: Caller, plantid: number): Promise<void> {
    const row = await this.deps.plants.require(caller, plantid);
    const bound = await this.deps.repo.boundCounts(row.id);
    if (bound.dataloggers > 0 || bound.devices > 0) throw new ApiError(517);
    await this.deps.repo.delete(row.id);
    const now = this.deps.now();
    let movedTo: number | null = null;
    if (row.is_default === 1) {
      const rest = await this.deps.repo.ownerPlants(row.owner_id);
      if (rest.length > 0) {
        movedTo = rest[0]!.id;
        await this.deps.repo.makeDefault(row.owner_id, movedTo, now);
      }
    }
    await this.deps.audit.record({
      entity: 'plant',
      entityId: row.id,
      before: auditView(plainRow(row), row.tz_offset),
      after: null,
    });
    if (movedTo !== null) {
      await this.deps.audit.record({ entity: 'plant', entityId: movedTo, before: { is_default: 0 }, after: { is_default: 1 } });
    }
    await this.deps.pictures?.discard([row.image, row.image_small]);
  }

  async setEnergyOffset(caller: Caller, plantid: number, energyOffset: number): Promise<void> {
    const row = await this.deps.plants.require(caller, plantid);
    if (Number(row.energy_offset) === energyOffset) throw new ApiError(271);
    await this.deps.repo.update(row.id, { energy_offset: energyOffset, updated_at: this.deps.now() });
    await this.deps.audit.record({
      entity: 'plant',
      entityId: row.id,
      before: { energy_offset: row.energy_offset },
      after: { energy_offset: energyOffset },
    });
  }
}

function plainRow(row: PlantRow): Record<string, unknown> {
  return { ...row } as Record<string, unknown>;
}
