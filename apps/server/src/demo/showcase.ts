import crypto from 'node:crypto';
import path from 'node:path';
import { ROLE } from '@sunwatch/protocol';
import { generateHistory, readStates, writePrivateFile, type PlantState } from '@sunwatch/simulator';
import type { AppContext } from '../context.js';
import { demoDataloggerSpec, ensureDatalogger, ensureProject, type DemoPlant } from './seed-telemetry.js';

/**
 * The showcase (issue 12, docs/decisions.md "Issue 12: last gaps"): the one account experience
 * codes open. A plant owner of its own (no parent, no distributor, no manufacturer: no real
 * tenant sees it and it sees no real tenant), with simulated plants, created on demand by
 * `addInvCode` and independent of DEMO_DATA. Its password is random and never published, so
 * it is reachable only through a code (a read-only demo session).
 *
 * History and live figures: the simulator (the demo fleet's physics) computes the frames since
 * the last stored sample and they go through the normal ingestion, at creation
 * (SHOWCASE_HISTORY_DAYS) and again whenever a code opens the showcase (at most once a minute)
 * and every five minutes while the server runs (main.ts), so a visitor always sees today's figures.
 */

/** Not a name signup or account creation accepts (the hyphen): it cannot clash with a real account. */
export const SHOWCASE_USR = 'demo-showcase';
/** Stored in `description`: tells the showcase from an account that only has its name. */
const SHOWCASE_MARK = 'sunwatch:showcase';
const SAMPLE_MS = 300_000;
const DAY_MS = 86_400_000;

export const SHOWCASE_PLANTS: readonly DemoPlant[] = [
  {
    owner: SHOWCASE_USR,
    dealer: '',
    name: 'Showcase Lisbon Villa',
    country: 'Portugal',
    province: 'Lisbon',
    city: 'Lisbon',
    address: 'Rua da Showcase 1, 1100-001 Lisboa',
    lat: 38.7223,
    lon: -9.1393,
    tzOffset: 0,
    nominalPower: 8.4,
    installAt: '2024-06-03',
    installer: 'Sunwatch showcase',
    currency: 'EUR',
    unitProfit: 0.22,
    priceBuy: 0.24,
    priceSell: 0.07,
    priceUse: 0.24,
    energyYearEstimate: 12800,
    dataloggers: [
      {
        pn: 'SWSHOW0000001',
        alias: 'Showcase hybrid',
        collectInterval: 300,
        heartbeatInterval: 300,
        system: {
          pvKWp: 8.4,
          battery: {
            capacityKWh: 10.24,
            maxChargeW: 5000,
            maxDischargeW: 5000,
            minSoc: 10,
            maxSoc: 100,
            efficiency: 0.92,
          },
          load: { dailyKWh: 12 },
          exportAllowed: true,
        },
        devices: [
          { devcode: 2341, devaddr: 1, sn: 'SW2341X0000101', alias: 'Hybrid inverter', encoding: 'registers' },
          { devcode: 5123, devaddr: 2, sn: 'SW5123X0000102', alias: 'Battery pack', encoding: 'values' },
          { devcode: 5125, devaddr: 3, sn: 'SW5125X0000103', alias: 'Weather station', encoding: 'registers' },
        ],
      },
    ],
  },
  {
    owner: SHOWCASE_USR,
    dealer: '',
    name: 'Showcase Munich Office',
    country: 'Germany',
    province: 'Bavaria',
    city: 'Munich',
    address: 'Showcase-Allee 1, 80331 München',
    lat: 48.1374,
    lon: 11.5755,
    tzOffset: 3600,
    nominalPower: 30,
    installAt: '2023-03-20',
    installer: 'Sunwatch showcase',
    currency: 'EUR',
    unitProfit: 0.28,
    priceBuy: 0.3,
    priceSell: 0.08,
    priceUse: 0.3,
    energyYearEstimate: 31000,
    dataloggers: [
      {
        pn: 'SWSHOW0000002',
        alias: 'Showcase rooftop',
        collectInterval: 300,
        heartbeatInterval: 300,
        system: { pvKWp: 30, load: { dailyKWh: 60 }, exportAllowed: true },
        devices: [
          { devcode: 5121, devaddr: 1, sn: 'SW5121X0000201', alias: 'Grid-tie inverter', encoding: 'values' },
          { devcode: 5124, devaddr: 2, sn: 'SW5124X0000202', alias: 'Smart meter', encoding: 'registers' },
        ],
      },
    ],
  },
];

/** The showcase account's id, or undefined when it does not exist (yet). */
export async function findShowcase(ctx: AppContext): Promise<number | undefined> {
  const row = await ctx.repos.accounts.findByUsr(SHOWCASE_USR);
  return row && row.description === SHOWCASE_MARK && row.role === ROLE.OWNER ? row.id : undefined;
}

/**
 * Creates the showcase account, its plants, dataloggers and devices where missing (idempotent,
 * inside the caller's transaction). A datalogger PN already held by someone else is skipped:
 * the showcase never takes over a real device. Returns the account id.
 */
export async function ensureShowcase(ctx: AppContext): Promise<number> {
  let id = await findShowcase(ctx);
  if (id === undefined) {
    if (await ctx.repos.accounts.findByUsr(SHOWCASE_USR))
      throw new Error(`${SHOWCASE_USR} exists and is not the showcase`);
    const row = await ctx.services.accounts.create({
      usr: SHOWCASE_USR,
      password: crypto.randomBytes(32).toString('base64url'),
      role: ROLE.OWNER,
      parentId: null,
      qname: 'Showcase',
      createdBy: null,
    });
    await ctx.dbh.db
      .updateTable('accounts')
      .set({ description: SHOWCASE_MARK, can_add_datalogger: 0 })
      .where('id', '=', row.id)
      .execute();
    id = row.id;
  }
  for (const plant of SHOWCASE_PLANTS) {
    const project = await ensureProject(ctx, plant, id);
    for (const dl of plant.dataloggers) {
      const held = await ctx.dbh.db
        .selectFrom('dataloggers')
        .select('owner_id')
        .where('pn', '=', dl.pn)
        .executeTakeFirst();
      if (held && held.owner_id !== id) {
        ctx.log.warn(`Showcase: datalogger ${dl.pn} belongs to another account, left out`);
        continue;
      }
      await ensureDatalogger(ctx, plant, dl, { projectId: project.id, ownerId: id, adminId: null, vendorId: null });
    }
  }
  return id;
}

const lastTopUp = new WeakMap<AppContext, number>();

function statePath(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'showcase-state.json');
}

/**
 * Brings the showcase's simulated figures up to now: frames from the last stored sample (or
 * SHOWCASE_HISTORY_DAYS back for a new datalogger) through the normal ingestion. Must run
 * outside a request transaction (ingestion writes on its own). Skipped when it ran less than
 * `minGapMs` ago. Returns the number of frames ingested.
 */
export async function topUpShowcase(ctx: AppContext, minGapMs = 60_000): Promise<number> {
  const now = ctx.now();
  const last = lastTopUp.get(ctx);
  if (last !== undefined && now - last < minGapMs) return 0;
  lastTopUp.set(ctx, now);
  const id = await findShowcase(ctx);
  if (id === undefined) return 0;
  const saved = readStates(statePath(ctx));
  const oldest = now - ctx.config.showcaseHistoryDays * DAY_MS;
  const specs: Array<{ spec: ReturnType<typeof demoDataloggerSpec>; from: number }> = [];
  const states: Record<string, PlantState | undefined> = {};
  for (const plant of SHOWCASE_PLANTS) {
    for (const dl of plant.dataloggers) {
      const row = await ctx.dbh.db
        .selectFrom('dataloggers')
        .select(['id', 'owner_id'])
        .where('pn', '=', dl.pn)
        .executeTakeFirst();
      if (!row || row.owner_id !== id) continue;
      const latest = await ctx.dbh.db
        .selectFrom('devices')
        .select((eb) => eb.fn.max('last_sample_at').as('t'))
        .where('datalogger_id', '=', row.id)
        .executeTakeFirst();
      const lastSample = latest?.t == null ? null : Number(latest.t);
      const st = saved[dl.pn];
      // Resume the simulated plant where the stored samples end (counters never go back).
      if (st && lastSample !== null) states[dl.pn] = { ...st, lastTs: Math.max(oldest, lastSample) };
      else if (lastSample !== null) states[dl.pn] = undefined;
      specs.push({ spec: demoDataloggerSpec(plant, dl), from: Math.max(oldest, (lastSample ?? oldest - 1) + 1) });
    }
  }
  if (specs.length === 0) return 0;
  const from = Math.min(...specs.map((s) => s.from));
  if (now - from < SAMPLE_MS) return 0;
  const ingest = ctx.services.telemetry.ingest;
  let count = 0;
  const history = await generateHistory({
    fleet: specs.map((s) => s.spec),
    from,
    to: now,
    interval: SAMPLE_MS / 1000,
    states,
    batchSize: 500,
    onBatch: async (frames) => {
      // A datalogger with a later last sample skips the frames it already has.
      const todo = frames.filter((f) => f.ts >= (specs.find((s) => s.spec.pn === f.pn)?.from ?? 0));
      const results = await Promise.all(todo.map((f) => ingest.submitData(f.pn, f)));
      count += results.filter((r) => r.ok).length;
    },
  });
  const out = { version: 1, states: { ...saved } as Record<string, PlantState> };
  for (const sim of history.sims) out.states[sim.spec.pn] = sim.state();
  try {
    writePrivateFile(statePath(ctx), JSON.stringify(out));
  } catch (e) {
    ctx.log.warn(`Showcase: cannot save state: ${(e as Error).message}`);
  }
  return count;
}
