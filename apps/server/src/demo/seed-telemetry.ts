import fs from 'node:fs';
import path from 'node:path';
import { getDefinition, DEVICE_STATUS } from '@sunwatch/protocol';
import type { DataloggerSpec, DeviceSpec, FleetSpec, SystemSpec } from '@sunwatch/simulator';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { tokenMatches } from '../modules/telemetry/device-tokens.js';

/** A device of a demo datalogger. */
export interface DemoDevice extends DeviceSpec {
  alias: string;
}

export interface DemoDatalogger {
  pn: string;
  alias: string;
  system: SystemSpec;
  devices: DemoDevice[];
  collectInterval: number;
  heartbeatInterval: number;
}

/** A demo plant: a real place, its prices and the dataloggers on it. */
export interface DemoPlant {
  owner: string;
  /** The distributor that administers its dataloggers. */
  dealer: string;
  name: string;
  country: string;
  province: string;
  city: string;
  address: string;
  lat: number;
  lon: number;
  /** Seconds east of UTC (standard time). */
  tzOffset: number;
  gridV?: number;
  gridHz?: 50 | 60;
  /** kW. */
  nominalPower: number;
  installAt: string;
  installer: string;
  currency: string;
  unitProfit: number;
  priceBuy: number;
  priceSell: number;
  priceUse: number;
  energyYearEstimate: number;
  /** Viewers (role 5) assigned to the plant. */
  viewers?: string[];
  dataloggers: DemoDatalogger[];
}

/** The manufacturer whose dataloggers these are. */
export const DEMO_VENDOR = 'sunmaker';

/**
 * The demo plants of docs/contracts.md ("Telemetry"): owner_anna (dealer_north) runs a hybrid
 * system with a battery in Hamburg, shared with viewer_cara; owner_ben (dealer_south) a grid-tie
 * system with a smart meter in Seville and a micro-inverter balcony system in Cape Town.
 */
export const DEMO_PLANTS: readonly DemoPlant[] = [
  {
    owner: 'owner_anna',
    dealer: 'dealer_north',
    name: 'Anna Elbblick Home',
    country: 'Germany',
    province: 'Hamburg',
    city: 'Hamburg',
    address: 'Elbchaussee 228, 22605 Hamburg',
    lat: 53.5503,
    lon: 9.8776,
    tzOffset: 3600,
    nominalPower: 7.2,
    installAt: '2024-04-18',
    installer: 'Nordlicht Solartechnik',
    currency: 'EUR',
    unitProfit: 0.32,
    priceBuy: 0.34,
    priceSell: 0.08,
    priceUse: 0.34,
    energyYearEstimate: 6500,
    viewers: ['viewer_cara'],
    dataloggers: [
      {
        pn: 'SWNORTH0000001',
        alias: 'Anna hybrid',
        collectInterval: 60,
        heartbeatInterval: 60,
        system: {
          pvKWp: 7.2,
          battery: {
            capacityKWh: 10.24,
            maxChargeW: 5000,
            maxDischargeW: 5000,
            minSoc: 10,
            maxSoc: 100,
            efficiency: 0.92,
          },
          load: { dailyKWh: 11 },
          exportAllowed: false,
        },
        devices: [
          { devcode: 2341, devaddr: 1, sn: 'SW2341N0000101', alias: 'Hybrid inverter', encoding: 'registers' },
          { devcode: 5123, devaddr: 2, sn: 'SW5123N0000102', alias: 'Battery pack', encoding: 'values' },
          // Issue 10: the plant's weather station (queryPlantEnvMonitor, CURRENT_RADIANT / CURRENT_TEMP).
          { devcode: 5125, devaddr: 3, sn: 'SW5125N0000103', alias: 'Weather station', encoding: 'registers' },
        ],
      },
    ],
  },
  {
    owner: 'owner_ben',
    dealer: 'dealer_south',
    name: 'Ben Triana Rooftop',
    country: 'Spain',
    province: 'Andalusia',
    city: 'Seville',
    address: 'Calle Betis 52, 41010 Sevilla',
    lat: 37.3826,
    lon: -6.0007,
    tzOffset: 3600,
    nominalPower: 11,
    installAt: '2023-09-05',
    installer: 'Sol del Sur Instalaciones',
    currency: 'EUR',
    unitProfit: 0.18,
    priceBuy: 0.21,
    priceSell: 0.06,
    priceUse: 0.21,
    energyYearEstimate: 17500,
    dataloggers: [
      {
        pn: 'SWSOUTH0000001',
        alias: 'Ben rooftop',
        collectInterval: 60,
        heartbeatInterval: 60,
        system: { pvKWp: 11, load: { dailyKWh: 16 }, exportAllowed: true },
        devices: [
          { devcode: 5121, devaddr: 1, sn: 'SW5121S0000101', alias: 'Grid-tie inverter', encoding: 'values' },
          { devcode: 5124, devaddr: 2, sn: 'SW5124S0000102', alias: 'Smart meter', encoding: 'registers' },
        ],
      },
    ],
  },
  {
    owner: 'owner_ben',
    dealer: 'dealer_south',
    name: 'Ben Cape Town Flat',
    country: 'South Africa',
    province: 'Western Cape',
    city: 'Cape Town',
    address: '14 Kloof Street, Gardens, Cape Town 8001',
    lat: -33.9275,
    lon: 18.4118,
    tzOffset: 7200,
    nominalPower: 1.6,
    installAt: '2025-02-11',
    installer: 'Table Bay Solar',
    currency: 'ZAR',
    unitProfit: 3.1,
    priceBuy: 3.4,
    priceSell: 1.1,
    priceUse: 3.4,
    energyYearEstimate: 2700,
    dataloggers: [
      {
        pn: 'SWSOUTH0000002',
        alias: 'Ben balcony',
        collectInterval: 60,
        heartbeatInterval: 60,
        system: { pvKWp: 1.7, load: { dailyKWh: 7 }, exportAllowed: true },
        devices: [
          { devcode: 5122, devaddr: 1, sn: 'SW5122S0000201', alias: 'Micro-inverter east', encoding: 'registers' },
          { devcode: 5122, devaddr: 2, sn: 'SW5122S0000202', alias: 'Micro-inverter west', encoding: 'values' },
        ],
      },
    ],
  },
];

/** `<dataDir>/demo-fleet.json`: the demo dataloggers with their plain device tokens (0600, never in the DB). */
export function demoFleetFile(dataDir: string): string {
  return path.join(dataDir, 'demo-fleet.json');
}

function readTokens(file: string): Map<string, string> {
  try {
    const f = JSON.parse(fs.readFileSync(file, 'utf8')) as FleetSpec;
    return new Map(f.dataloggers.filter((d) => d.token).map((d) => [d.pn, d.token!]));
  } catch {
    return new Map();
  }
}

function writePrivate(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
  fs.chmodSync(file, 0o600);
}

export interface SeedTelemetryResult {
  /** Rows created (plants, dataloggers, devices, viewer assignments). */
  created: number;
  /** The demo dataloggers as a simulator fleet, with their device tokens. */
  fleet: FleetSpec;
}

/** The simulator spec of a demo datalogger (token added by the seed). */
export function demoDataloggerSpec(plant: DemoPlant, dl: DemoDatalogger, token?: string): DataloggerSpec {
  return {
    pn: dl.pn,
    token,
    site: {
      city: plant.city,
      country: plant.country,
      lat: plant.lat,
      lon: plant.lon,
      tzOffset: plant.tzOffset,
      gridV: plant.gridV,
      gridHz: plant.gridHz,
      address: plant.address,
    },
    system: dl.system,
    devices: dl.devices.map(({ devcode, devaddr, sn, encoding }) => ({ devcode, devaddr, sn, encoding })),
    collectInterval: dl.collectInterval,
    heartbeatInterval: dl.heartbeatInterval,
  };
}

/**

/** The plant of an owner with this name, created when missing. */
export async function ensureProject(
  ctx: AppContext,
  plant: DemoPlant,
  ownerId: number,
): Promise<{ id: number; created: number }> {
  // The open transaction when called from an action (the showcase), else the root database.
  const db = ctx.dbh.db;
  const found = await db
    .selectFrom('projects')
    .select(['id'])
    .where('owner_id', '=', ownerId)
    .where('name', '=', plant.name)
    .executeTakeFirst();
  if (found) return { id: found.id, created: 0 };
  const now = ctx.now();
  const hasDefault = await db.selectFrom('projects').select('id').where('owner_id', '=', ownerId).executeTakeFirst();
  const row = await db
    .insertInto('projects')
    .values({
      owner_id: ownerId,
      name: plant.name,
      remark: 'Demo plant (simulated)',
      image: '',
      is_default: hasDefault ? 0 : 1,
      country: plant.country,
      province: plant.province,
      city: plant.city,
      county: '',
      district: '',
      address: plant.address,
      lon: plant.lon,
      lat: plant.lat,
      tz_offset: plant.tzOffset,
      nominal_power: plant.nominalPower,
      install_at: Date.parse(`${plant.installAt}T00:00:00Z`) - plant.tzOffset * 1000,
      installer: plant.installer,
      design_company: plant.installer,
      energy_year_estimate: plant.energyYearEstimate,
      energy_offset: 0,
      currency: plant.currency,
      unit_profit: plant.unitProfit,
      price_buy: plant.priceBuy,
      price_sell: plant.priceSell,
      price_use: plant.priceUse,
      coal_factor: 0.4,
      co2_factor: 0.997,
      so2_factor: 0.03,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, created: 1 };
}

interface Binding {
  projectId: number;
  ownerId: number;
  adminId: number | null;
  vendorId: number | null;
}

/** A datalogger bound to its plant, owner, distributor and manufacturer, and its devices; created when missing. */
export async function ensureDatalogger(
  ctx: AppContext,
  plant: DemoPlant,
  dl: DemoDatalogger,
  b: Binding,
): Promise<{ id: number; tokenHash: string | null; created: number }> {
  // The open transaction when called from an action (the showcase), else the root database.
  const db = ctx.dbh.db;
  const now = ctx.now();
  let created = 0;
  let row = await db
    .selectFrom('dataloggers')
    .select(['id', 'device_token_hash'])
    .where('pn', '=', dl.pn)
    .executeTakeFirst();
  if (!row) {
    row = await db
      .insertInto('dataloggers')
      .values({
        pn: dl.pn,
        alias: dl.alias,
        type_code: 'SW',
        model: 'SW-DL4G',
        comm_method: '4G',
        comm_address: '',
        devcode: null,
        online_domain: '',
        status: DEVICE_STATUS.OFFLINE,
        active: 1,
        firmware: 'SWDL-2.4.1',
        signal: 0,
        load_count: dl.devices.length,
        comm_balance: 0,
        owner_id: b.ownerId,
        admin_id: b.adminId,
        vendor_id: b.vendorId,
        project_id: b.projectId,
        tz_offset: plant.tzOffset,
        collect_interval: dl.collectInterval,
        heartbeat_interval: dl.heartbeatInterval,
        storage_days: 365,
        poll_start: 0,
        poll_end: 0,
        min_addr: 1,
        max_addr: 247,
        transparent: 0,
        protocol_set: '',
        country: plant.country,
        province: plant.province,
        city: plant.city,
        county: '',
        district: '',
        address: plant.address,
        lon: plant.lon,
        lat: plant.lat,
        device_token_hash: null,
        last_seen_at: null,
        ccid: '',
        card_status: 0,
        card_expire_at: null,
        gprs_traffic: 0,
        bad_frames: 0,
        created_at: now,
        updated_at: now,
      })
      .returning(['id', 'device_token_hash'])
      .executeTakeFirstOrThrow();
    created += 1;
  }
  for (const d of dl.devices) {
    const def = getDefinition(d.devcode);
    if (!def) continue;
    const has = await db
      .selectFrom('devices')
      .select('id')
      .where('pn', '=', dl.pn)
      .where('devcode', '=', d.devcode)
      .where('devaddr', '=', d.devaddr)
      .where('sn', '=', d.sn)
      .executeTakeFirst();
    if (has) continue;
    await db
      .insertInto('devices')
      .values({
        datalogger_id: row.id,
        pn: dl.pn,
        devcode: d.devcode,
        devaddr: d.devaddr,
        sn: d.sn,
        alias: d.alias,
        devtype: def.devtype,
        device_type: def.deviceType,
        model: def.name.slice(0, 64),
        brand: String(def.brand),
        status: DEVICE_STATUS.OFFLINE,
        firmware: '',
        load: 0,
        project_id: b.projectId,
        last_sample_at: null,
        created_at: now,
      })
      .execute();
    created += 1;
  }
  return { id: row.id, tokenHash: row.device_token_hash, created };
}

async function accountIds(ctx: AppContext, usrs: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const u of new Set(usrs)) {
    const a = await ctx.repos.accounts.findByUsr(u);
    if (a) ids.set(u, a.id);
  }
  return ids;
}

/**
 * Creates the demo plants, dataloggers (bound to owner, distributor and manufacturer) and devices
 * where missing, assigns viewer_cara, and makes sure every demo datalogger has a device token
 * whose plain text is in `<dataDir>/demo-fleet.json` (0600). Idempotent; needs the demo accounts.
 */
export async function seedTelemetry(app: FastifyInstance | { ctx: AppContext }): Promise<SeedTelemetryResult> {
  const ctx = app.ctx;
  const { db } = ctx;
  const ids = await accountIds(
    ctx,
    DEMO_PLANTS.flatMap((p) => [p.owner, p.dealer, ...(p.viewers ?? [])]).concat(DEMO_VENDOR),
  );
  const file = demoFleetFile(ctx.config.dataDir);
  const tokens = readTokens(file);
  const fleet: FleetSpec = { dataloggers: [] };
  let created = 0;
  let tokensChanged = false;
  for (const plant of DEMO_PLANTS) {
    const ownerId = ids.get(plant.owner);
    if (ownerId === undefined) continue;
    const project = await ensureProject(ctx, plant, ownerId);
    created += project.created;
    for (const v of plant.viewers ?? []) {
      const viewerId = ids.get(v);
      if (viewerId === undefined) continue;
      const has = await db
        .selectFrom('viewer_projects')
        .select('viewer_id')
        .where('viewer_id', '=', viewerId)
        .where('project_id', '=', project.id)
        .executeTakeFirst();
      if (!has) {
        await db.insertInto('viewer_projects').values({ viewer_id: viewerId, project_id: project.id }).execute();
        created += 1;
      }
    }
    for (const dl of plant.dataloggers) {
      const row = await ensureDatalogger(ctx, plant, dl, {
        projectId: project.id,
        ownerId,
        adminId: ids.get(plant.dealer) ?? null,
        vendorId: ids.get(DEMO_VENDOR) ?? null,
      });
      created += row.created;
      let token = tokens.get(dl.pn);
      if (!token || !tokenMatches(token, row.tokenHash)) {
        token = await ctx.services.telemetry.issueDeviceToken(dl.pn);
        tokens.set(dl.pn, token);
        tokensChanged = true;
      }
      fleet.dataloggers.push(demoDataloggerSpec(plant, dl, token));
    }
  }
  if (tokensChanged || !fs.existsSync(file)) writePrivate(file, JSON.stringify(fleet, null, 2) + '\n');
  return { created, fleet };
}

export interface ProvisionOptions {
  /** Plant owner (role 0) the dataloggers are bound to; default owner_ben. */
  owner?: string;
  /** Distributor that administers the dataloggers (default dealer_south). */
  dealer?: string;
  vendor?: string;
}

/**
 * Registers a simulator fleet (e.g. `buildFleet({count})`) on this server for load tests: one
 * plant per datalogger at its site, bound to `owner`/`dealer`/`vendor`, devices created, and a
 * fresh device token per datalogger. Returns the fleet with the plain tokens (store them 0600).
 */
export async function provisionFleet(
  app: FastifyInstance | { ctx: AppContext },
  fleet: FleetSpec,
  opts: ProvisionOptions = {},
): Promise<FleetSpec> {
  const ctx = app.ctx;
  const owner = opts.owner ?? 'owner_ben';
  const dealer = opts.dealer ?? 'dealer_south';
  const vendor = opts.vendor ?? DEMO_VENDOR;
  const ids = await accountIds(ctx, [owner, dealer, vendor]);
  const ownerId = ids.get(owner);
  if (ownerId === undefined) throw new Error(`No account ${owner}`);
  const out: FleetSpec = { dataloggers: [] };
  for (const spec of fleet.dataloggers) {
    const plant: DemoPlant = {
      owner,
      dealer,
      name: `Sim ${spec.site.city} ${spec.pn}`,
      country: spec.site.country,
      province: '',
      city: spec.site.city,
      address: spec.site.address ?? spec.site.city,
      lat: spec.site.lat,
      lon: spec.site.lon,
      tzOffset: spec.site.tzOffset,
      nominalPower: spec.system.pvKWp,
      installAt: '2025-01-01',
      installer: 'Sunwatch simulator',
      currency: 'EUR',
      unitProfit: 0.2,
      priceBuy: 0.25,
      priceSell: 0.07,
      priceUse: 0.25,
      energyYearEstimate: Math.round(spec.system.pvKWp * 1200),
      dataloggers: [],
    };
    const dl: DemoDatalogger = {
      pn: spec.pn,
      alias: `Sim ${spec.pn}`,
      system: spec.system,
      devices: spec.devices.map((d) => ({ ...d, alias: `${d.devcode}-${d.devaddr}` })),
      collectInterval: spec.collectInterval,
      heartbeatInterval: spec.heartbeatInterval,
    };
    const project = await ensureProject(ctx, plant, ownerId);
    await ensureDatalogger(ctx, plant, dl, {
      projectId: project.id,
      ownerId,
      adminId: ids.get(dealer) ?? null,
      vendorId: ids.get(vendor) ?? null,
    });
    out.dataloggers.push({ ...spec, token: await ctx.services.telemetry.issueDeviceToken(spec.pn) });
  }
  return out;
}

/** Writes a fleet with tokens to a file readable only by its owner. */
export function writeFleetFile(file: string, fleet: FleetSpec): void {
  writePrivate(file, JSON.stringify(fleet, null, 2) + '\n');
}
