import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerDemoFleet } from '../../src/demo/demo-fleet.js';
import { DEMO_DEALER_STOCK, DEMO_MAKER_STOCK, DEMO_ORDER } from '../../src/demo/seed-distribution.js';
import { seedDemo } from '../../src/demo/seed-demo.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { idOf } from './helpers.js';

/**
 * The demo platform (DEMO_DATA on, as `npm start` and the browser flows run it) has a stock of
 * unassigned, simulated dataloggers for dealer_north and sunmaker and one order; the plain
 * integration-test seed (DEMO_DATA off) does not, so other tests' counts are unchanged.
 */
describe.each(engines.slice(0, 1))('demo distribution stock ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, { config: { seedDemo: true, demoHistoryDays: 1 } });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('seeds the stock and the order once, unassigned, and the demo fleet simulates them', async () => {
    await seedDemo(s.app); // idempotent
    const all = [...DEMO_DEALER_STOCK, ...DEMO_ORDER.pns, ...DEMO_MAKER_STOCK];
    const rows = await s.ctx.db.selectFrom('dataloggers').selectAll().where('pn', 'in', all).execute();
    expect(rows.map((r) => r.pn).sort()).toEqual([...all].sort());
    const north = await idOf(s, 'dealer_north');
    const maker = await idOf(s, 'sunmaker');
    for (const r of rows) {
      expect(r.owner_id).toBeNull();
      expect(r.project_id).toBeNull();
      expect(r.vendor_id).toBe(maker);
      expect(r.admin_id).toBe(DEMO_MAKER_STOCK.includes(r.pn) ? null : north);
    }
    const order = await s.ctx.db.selectFrom('datalogger_orders').selectAll().execute();
    expect(order).toMatchObject([{ order_no: DEMO_ORDER.orderNo, vendor_code: 'SW', dist_id: north, bound_to: null }]);

    const demo = (await startServerDemoFleet(s))!;
    try {
      expect(demo.fleet.loggers.map((l) => l.spec.pn)).toEqual(expect.arrayContaining(all));
      await s.ctx.services.telemetry.ingest.drain();
      const withSamples = await s.ctx.db
        .selectFrom('devices')
        .select('pn')
        .where('pn', 'in', all)
        .where('last_sample_at', 'is not', null)
        .execute();
      expect(new Set(withSamples.map((d) => d.pn))).toEqual(new Set(all));
    } finally {
      await demo.stop();
    }
  });
});
