import {
  ApiError,
  ROLE,
  TARIFF_PRICE_KEYS,
  touIssue,
  type Catalogue,
  type IncomeFigure,
  type IncomeMonth,
  type ParsedParamsOf,
  type TariffPrices,
  type TariffWire,
  type TouPeriod,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import { dayOf, dayStartMs, dayString, fmtTs, localDay } from '../../shared/local-time.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PlantRow } from '../plants/plants.repository.js';
import type { PlantsService } from '../plants/plants.service.js';
import { figureWire, tariffAt, zeroAcc, type IncomeAcc, type TariffRec } from './income.js';
import { plantTariff, samePrices, type IncomeService } from './income.service.js';
import { TARIFF_PRICE_COLUMNS, tariffRec, type TariffRow, type TariffsRepository } from './tariffs.repository.js';

type Params<N extends keyof Catalogue> = ParsedParamsOf<Catalogue[N]>;
type TariffFields = Partial<TariffPrices> & { currency?: string; periods?: TouPeriod[] };

export interface TariffsDeps {
  repo: TariffsRepository;
  income: IncomeService;
  plants: Pick<PlantsService, 'require'>;
  access: Pick<AccessService, 'scopeOf'>;
  audit: Pick<AuditService, 'record'>;
  now: () => number;
}

/** Roles that may change a plant's tariffs (as addPlant/editPlant). */
const WRITER_ROLES: readonly number[] = [ROLE.OWNER, ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OPERATOR];

function checkPeriods(periods: TouPeriod[] | undefined): void {
  if (!periods) return;
  const issue = touIssue(periods);
  if (issue) throw new ApiError(6, `periods[${issue.index}].${issue.problem}`);
}

function wireFigures(m: Map<string, IncomeAcc>, currency: string): IncomeFigure[] {
  const list = [...m.entries()];
  if (!list.some(([c]) => c === currency)) list.push([currency, zeroAcc()]);
  // The current currency first, the others in name order.
  list.sort((a, b) => (a[0] === currency ? -1 : b[0] === currency ? 1 : a[0].localeCompare(b[0])));
  return list.map(([c, a]) => figureWire(c, a));
}

/**
 * Tariffs and income actions (issue 15, docs/money/tariffs.md). Scoping as the plants module: a
 * plant the caller does not see answers 260; the catalogue's roles keep viewers and group accounts
 * from writing. A tariff that has started (effective_from ≤ now) is immutable (8). Writes run in the
 * dispatcher's transaction and are audited.
 */
export class TariffsService {
  constructor(private readonly deps: TariffsDeps) {}

  private wire(
    t: TariffRec,
    next: TariffRec | undefined,
    tz: number,
    row: TariffRow | undefined,
    now: number,
  ): TariffWire {
    const state = t.from > now ? 'future' : next && next.from <= now ? 'past' : 'current';
    return {
      id: t.id,
      pid: row ? Number(row.project_id) : 0,
      from: t.from === 0 ? '' : fmtTs(t.from, tz),
      fromMs: t.from,
      until: next ? fmtTs(next.from, tz) : '',
      currency: t.currency,
      prices: t.prices,
      periods: t.periods,
      state,
      createdAt: row ? fmtTs(Number(row.created_at), tz) : '',
      createdBy: row?.created_usr ?? '',
    };
  }

  /** The plant's first tariff from its own prices, written once (before any change). */
  private async ensureBase(plant: PlantRow): Promise<void> {
    if ((await this.deps.repo.countOf(plant.id)) > 0) return;
    const base = plantTariff(plant);
    const now = this.deps.now();
    await this.deps.repo.insert({
      project_id: plant.id,
      effective_from: 0,
      currency: base.currency,
      ...priceColumns(base.prices),
      periods: '[]',
      mirrored: 1,
      created_by: null,
      created_usr: '',
      created_at: now,
      updated_at: now,
    });
  }

  async list(caller: Caller, p: Params<'queryPlantTariffs'>) {
    const plant = await this.deps.plants.require(caller, p.plantid);
    const now = this.deps.now();
    const rows = await this.deps.repo.tariffsOf(plant.id);
    const recs = rows.length > 0 ? rows.map(tariffRec) : [plantTariff(plant)];
    const wires = recs
      .map((t, i) => this.wire(t, recs[i + 1], plant.tz_offset, rows[i], now))
      .map((w) => ({ ...w, pid: plant.id }));
    const current = wires.find((w) => w.state === 'current') ?? wires[0]!;
    const newestFirst = [...wires].reverse();
    return {
      pid: plant.id,
      timezone: plant.tz_offset,
      total: newestFirst.length,
      page: p.page,
      pagesize: p.pagesize,
      current,
      tariffs: newestFirst.slice(p.page * p.pagesize, (p.page + 1) * p.pagesize),
      canEdit: WRITER_ROLES.includes(caller.role) && !caller.demo,
    };
  }

  /** Start instant of `from` (a local date strictly after today), or now when absent. */
  private startOf(from: string | undefined, tz: number, now: number): number {
    if (from === undefined) return now;
    const ms = dayStartMs(dayOf(from), tz);
    if (ms <= now) throw new ApiError(6, 'from');
    return ms;
  }

  async add(caller: Caller, p: Params<'addPlantTariff'>): Promise<{ id: number }> {
    const plant = await this.deps.plants.require(caller, p.plantid);
    checkPeriods(p.periods);
    const now = this.deps.now();
    const start = this.startOf(p.from, plant.tz_offset, now);
    return { id: await this.insertTariff(caller, plant, start, p, now) };
  }

  private async insertTariff(
    caller: Caller,
    plant: PlantRow,
    start: number,
    f: TariffFields,
    now: number,
  ): Promise<number> {
    await this.ensureBase(plant);
    const rows = await this.deps.repo.tariffsOf(plant.id);
    if (rows.some((r) => Number(r.effective_from) === start)) throw new ApiError(14, 'from');
    const inForce = tariffAt(rows.map(tariffRec), start);
    const prices = { ...inForce.prices };
    for (const k of TARIFF_PRICE_KEYS) if (f[k] !== undefined) prices[k] = f[k];
    const currency = f.currency ?? inForce.currency;
    const periods = f.periods ?? inForce.periods;
    const started = start <= now;
    const values = {
      project_id: plant.id,
      effective_from: start,
      currency,
      ...priceColumns(prices),
      periods: JSON.stringify(periods),
      mirrored: started ? 1 : 0,
      created_by: caller.accountId,
      created_usr: caller.usr,
      created_at: now,
      updated_at: now,
    };
    const id = await this.deps.repo.insert(values);
    if (started) await this.deps.repo.mirror(plant.id, currency, prices, now);
    await this.deps.audit.record({ entity: 'plant_tariff', entityId: id, before: null, after: { ...values, periods } });
    return id;
  }

  /** A tariff the caller may change: visible plant, not started yet. */
  private async future(caller: Caller, id: number): Promise<{ row: TariffRow; plant: PlantRow }> {
    const row = await this.deps.repo.find(id);
    if (!row) throw new ApiError(12);
    const plant = await this.deps.plants.require(caller, Number(row.project_id));
    if (Number(row.effective_from) <= this.deps.now()) throw new ApiError(8, 'started');
    return { row, plant };
  }

  async edit(caller: Caller, p: Params<'editPlantTariff'>): Promise<void> {
    const { row, plant } = await this.future(caller, p.id);
    checkPeriods(p.periods);
    const now = this.deps.now();
    const patch: Partial<TariffRow> = {};
    if (p.from !== undefined) {
      const start = this.startOf(p.from, plant.tz_offset, now);
      if (start !== Number(row.effective_from)) {
        const clash = (await this.deps.repo.tariffsOf(plant.id)).some((r) => Number(r.effective_from) === start);
        if (clash) throw new ApiError(14, 'from');
        patch.effective_from = start;
      }
    }
    if (p.currency !== undefined && p.currency !== row.currency) patch.currency = p.currency;
    for (const k of TARIFF_PRICE_KEYS) {
      const v = p[k];
      const col = TARIFF_PRICE_COLUMNS[k];
      if (v !== undefined && v !== Number(row[col])) patch[col] = v;
    }
    if (p.periods !== undefined) {
      const json = JSON.stringify(p.periods);
      if (json !== row.periods) patch.periods = json;
    }
    if (Object.keys(patch).length === 0) throw new ApiError(271);
    const before: Record<string, unknown> = {};
    for (const k of Object.keys(patch)) before[k] = row[k as keyof TariffRow];
    await this.deps.repo.update(row.id, { ...patch, updated_at: now });
    await this.deps.audit.record({ entity: 'plant_tariff', entityId: row.id, before, after: patch });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const { row } = await this.future(caller, id);
    await this.deps.repo.delete(row.id);
    await this.deps.audit.record({ entity: 'plant_tariff', entityId: row.id, before: { ...row }, after: null });
  }

  /**
   * editPlant changed a plant's prices or currency: a new tariff from now with the plant's new
   * values (the past keeps its tariffs). Called before the plant row is updated.
   */
  async pricesEdited(caller: Caller, plant: PlantRow, after: Record<string, unknown>): Promise<void> {
    const cur = plantTariff(plant);
    const next = plantTariff({ ...plant, ...(after as Partial<PlantRow>) });
    if (next.currency === cur.currency && samePrices(next.prices, cur.prices)) return;
    const now = this.deps.now();
    const rows = await this.deps.repo.tariffsOf(plant.id);
    const same = rows.find((r) => Number(r.effective_from) === now);
    if (same) {
      await this.deps.repo.update(same.id, { currency: next.currency, ...priceColumns(next.prices), updated_at: now });
      await this.deps.audit.record({
        entity: 'plant_tariff',
        entityId: same.id,
        before: { ...same },
        after: { currency: next.currency, ...next.prices },
      });
      return;
    }
    await this.insertTariff(caller, plant, now, { currency: next.currency, ...next.prices }, now);
  }

  async income(caller: Caller, p: Params<'queryPlantIncome'>) {
    const plant = await this.deps.plants.require(caller, p.plantid);
    const tz = plant.tz_offset;
    const inc = this.deps.income;
    await inc.freeze(plant.id, tz);
    const live = await inc.live(plant.id, tz);
    const now = this.deps.now();
    const today = localDay(now, tz);
    const tariffs = await inc.tariffs(plant.id);
    const currency = tariffs.length ? tariffAt(tariffs, now).currency : plant.currency;
    const monthStart = Math.floor(today / 100) * 100 + 1;
    const yearStart = Math.floor(today / 10000) * 10000 + 101;
    const todayFig = await inc.since(plant.id, today, live);
    const chartYear = p.year ? Number(p.year) : Math.floor(today / 10000);
    const months = new Map<string, IncomeMonth>();
    const monthAcc = new Map<string, { month: number; currency: string; acc: IncomeAcc }>();
    for (const r of await this.deps.repo.frozenMonths(plant.id, chartYear * 10000 + 101, chartYear * 10000 + 1231)) {
      monthAcc.set(`${r.month}:${r.currency}`, r);
    }
    for (const [day, m] of live) {
      if (Math.floor(day / 10000) !== chartYear) continue;
      for (const [c, acc] of m) {
        const key = `${Math.floor(day / 100)}:${c}`;
        const e = monthAcc.get(key);
        if (e) for (const k of Object.keys(acc) as Array<keyof IncomeAcc>) e.acc[k] += acc[k];
        else monthAcc.set(key, { month: Math.floor(day / 100), currency: c, acc: { ...acc } });
      }
    }
    for (const r of [...monthAcc.values()].sort((a, b) => a.month - b.month || a.currency.localeCompare(b.currency))) {
      const month = `${Math.floor(r.month / 100)}-${String(r.month % 100).padStart(2, '0')}`;
      months.set(`${month}:${r.currency}`, { month, ...figureWire(r.currency, r.acc) });
    }
    return {
      pid: plant.id,
      currency,
      date: dayString(today),
      today: wireFigures(todayFig, currency),
      month: wireFigures(await inc.since(plant.id, monthStart, live), currency),
      year: wireFigures(await inc.since(plant.id, yearStart, live), currency),
      total: wireFigures(await inc.since(plant.id, 0, live), currency),
      chartYear: String(chartYear),
      months: [...months.values()],
    };
  }

  async fleet(caller: Caller) {
    const scope = await this.deps.access.scopeOf(caller);
    const now = this.deps.now();
    // The fleet's calendar: UTC days (each plant's frozen days are its own local days).
    const today = localDay(now, 0);
    const monthStart = Math.floor(today / 100) * 100 + 1;
    const yearStart = Math.floor(today / 10000) * 10000 + 101;
    const [m, y, t] = await Promise.all([
      this.deps.repo.fleetSince(scope, monthStart),
      this.deps.repo.fleetSince(scope, yearStart),
      this.deps.repo.fleetSince(scope, 0),
    ]);
    const pick = (list: typeof m, c: string) => list.find((x) => x.currency === c)?.acc ?? zeroAcc();
    return {
      currencies: t
        .sort((a, b) => b.plants - a.plants || a.currency.localeCompare(b.currency))
        .map((x) => ({
          currency: x.currency,
          plants: x.plants,
          month: figureWire(x.currency, pick(m, x.currency)),
          year: figureWire(x.currency, pick(y, x.currency)),
          total: figureWire(x.currency, x.acc),
        })),
    };
  }
}

function priceColumns(p: TariffPrices) {
  return {
    price_gen: p.unitProfit,
    price_sell: p.soldProfit,
    price_self: p.selfProfit,
    price_buy: p.purchProfit,
    price_use: p.consProfit,
    price_feed: p.feedProfit,
  };
}
