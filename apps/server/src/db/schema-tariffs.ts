import type { Generated } from 'kysely';

/** Tariffs and frozen income (migration 0038, issue 15; docs/money/tariffs.md). */
export interface PlantTariffsTable {
  id: Generated<number>;
  project_id: number;
  /** Epoch ms the tariff starts (0: since always). */
  effective_from: number;
  currency: string;
  /** profit.unitProfit, soldProfit, selfProfit, purchProfit, consProfit, feedProfit. */
  price_gen: number;
  price_sell: number;
  price_self: number;
  price_buy: number;
  price_use: number;
  price_feed: number;
  /** JSON TouPeriod[] (protocol tariffs.ts). */
  periods: string;
  /** 1 once the plant's price columns show this tariff. */
  mirrored: Generated<number>;
  created_by: number | null;
  created_usr: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** A plant's income of one closed local day (YYYYMMDD) per currency; kWh and money, frozen. */
export interface PlantIncomeDaysTable {
  project_id: number;
  day: number;
  currency: string;
  generated: number;
  sold: number;
  self_use: number;
  bought: number;
  used: number;
  gen_income: number;
  sold_income: number;
  feed_income: number;
  self_income: number;
  buy_cost: number;
  use_value: number;
  frozen_at: number;
}

export interface TariffTables {
  plant_tariffs: PlantTariffsTable;
  plant_income_days: PlantIncomeDaysTable;
}
