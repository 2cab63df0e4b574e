import { DEVICE_STATUS, getDefinition } from '@sunwatch/protocol';
import type { DataloggerSpec } from '@sunwatch/simulator';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { DistributionRepository } from '../modules/distribution/distribution.repository.js';
import { demoDataloggerSpec, type DemoDatalogger, type DemoPlant } from './seed-telemetry.js';

/**
 * Demo stock for datalogger distribution (issue 9): unassigned dataloggers in the stock of
 * dealer_north (admin_id) and of sunmaker (vendor_id only), simulated like the demo plants so that
 * an owner who is given one sees live data; and an order of sunmaker sold to dealer_north.
 * Names are listed in docs/accounts/viewers-distribution.md for the web flows.
 */
const site: Omit<DemoPlant, 'dataloggers'> = {
  owner: '',
  dealer: 'dealer_north',
  name: 'Stock',
  country: 'Germany',
  province: 'Schleswig-Holstein',
  city: 'Kiel',
  address: 'Holstenstraße 1, 24103 Kiel',
  lat: 54.3233,
  lon: 10.1228,
  tzOffset: 3600,
  nominalPower: 5,
  installAt: '2026-01-01',
  installer: 'Nordlicht Solartechnik',
  currency: 'EUR',
  unitProfit: 0.3,
  priceBuy: 0.34,
  priceSell: 0.08,
  priceUse: 0.34,
  energyYearEstimate: 4500,
};

function stockLogger(pn: string, n: number): DemoDatalogger {
  return {
    pn,
    alias: '',
    collectInterval: 60,
    heartbeatInterval: 60,
    system: { pvKWp: 4 + n, load: { dailyKWh: 8 + n }, exportAllowed: true },
    devices: [{ devcode: 5121, devaddr: 1, sn: `SW5121K${pn.slice(-7)}`, alias: 'Grid-tie inverter', encoding: 'values' }],
  };
}

/** The stock of dealer_north (free for single, list and sheet distribution). */
export const DEMO_DEALER_STOCK = ['SWNORTH0000101', 'SWNORTH0000102', 'SWNORTH0000103', 'SWNORTH0000104', 'SWNORTH0000105'];
/** The dataloggers of the demo order (dealer_north's stock too, allocated together by order number). */
export const DEMO_ORDER = { orderNo: 'SO20261124001', vendorCode: 'SW', dist: 'dealer_north', pns: ['SWNORTH0000201', 'SWNORTH0000202'] };
/** The stock of the manufacturer sunmaker itself (no distributor yet). */
export const DEMO_MAKER_STOCK = ['SWMAKER0000001', 'SWMAKER0000002'];

/** Creates the demo stock and order where missing (idempotent); returns the simulator specs of the stock. */
export async function seedDistribution(app: FastifyInstance | { ctx: AppContext }): Promise<DataloggerSpec[]> {
  const ctx = app.ctx;
  const repo = new DistributionRepository(ctx.db, ctx.now);
  const id = async (usr: string) => (await ctx.repos.accounts.findByUsr(usr))?.id;
  const dealer = await id('dealer_north');
  const maker = await id('sunmaker');
  if (dealer === undefined || maker === undefined) return [];
  const all = [
    ...DEMO_DEALER_STOCK.map((pn) => ({ pn, admin: dealer as number | null })),
    ...DEMO_ORDER.pns.map((pn) => ({ pn, admin: dealer as number | null })),
    ...DEMO_MAKER_STOCK.map((pn) => ({ pn, admin: null })),
  ];
  const existing = await repo.byPns(all.map((a) => a.pn));
  const specs: DataloggerSpec[] = [];
  for (const [n, a] of all.entries()) {
    const dl = stockLogger(a.pn, n % 4);
    if (!existing.has(a.pn)) {
      const dlId = await repo.insertStock(a.pn, '', a.admin, maker, 'SW');
      await ctx.db
        .updateTable('dataloggers')
        .set({
          model: 'SW-DL4G',
          comm_method: '4G',
          firmware: 'SWDL-2.4.1',
          active: 1,
          load_count: dl.devices.length,
          tz_offset: site.tzOffset,
          collect_interval: dl.collectInterval,
          heartbeat_interval: dl.heartbeatInterval,
          country: site.country,
          province: site.province,
          city: site.city,
          address: site.address,
          lat: site.lat,
          lon: site.lon,
        })
        .where('id', '=', dlId)
        .execute();
      for (const d of dl.devices) {
        const def = getDefinition(d.devcode);
        if (!def) continue;
        await ctx.db
          .insertInto('devices')
          .values({
            datalogger_id: dlId,
            pn: a.pn,
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
            project_id: null,
            last_sample_at: null,
            created_at: ctx.now(),
          })
          .execute();
      }
    }
    const token = await ctx.services.telemetry.issueDeviceToken(a.pn);
    specs.push(demoDataloggerSpec({ ...site, dataloggers: [] }, dl, token));
  }
  if (!(await repo.order(DEMO_ORDER.orderNo))) {
    await repo.insertOrder({ orderNo: DEMO_ORDER.orderNo, vendorCode: DEMO_ORDER.vendorCode, distId: dealer, pns: DEMO_ORDER.pns });
  }
  return specs;
}
