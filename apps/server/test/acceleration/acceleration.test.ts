import {
  ApiCallError,
  accelerationPrice,
  devcodeFunctions,
  getDefinition,
  type AccelerationCandidate,
  type AccelerationChangeRow,
  type AccelerationOrderRow,
  type AccelerationQuote,
  type AuthDat,
} from '@sunwatch/protocol';
import { LiveFleet, MqttPublisher, simClock, type DataloggerSpec } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedTelemetry } from '../../src/demo/seed-telemetry.js';
import { DEMO_WIFI_PN, seedDemoAcceleration } from '../../src/demo/seed-acceleration.js';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';

/**
 * Issue 15 acceleration orders end to end, on SQLite and PostgreSQL: the purchase rules (terms
 * accepted, Wi-Fi dataloggers only, the caller's own or managed dataloggers), the records scoped
 * in SQL, and a paid order that REALLY changes the reporting interval: the server sends the
 * `collect_interval` command over the embedded broker to the real simulator (kept pending while
 * the datalogger is cut off, delivered when it is back), the simulator acknowledges and then
 * reports at the new interval (measured on the samples stored), and collectionFrequencyRecord
 * shows the change.
 */
const NORTH = 'SWNORTH0000001'; // owner_anna, dealer_north; made Wi-Fi below
const SOUTH = 'SWSOUTH0000001'; // owner_ben, dealer_south; stays 4G (cellular)
const PASSWORDS: Record<string, string> = {
  owner_anna: 'Owner_2026',
  owner_ben: 'Owner_2026',
  dealer_north: 'Dealer_2026',
  dealer_south: 'Dealer_2026',
  viewer_cara: 'Viewer_2026',
  group_east: 'Group_2026',
  operator: 'Operator_2026',
  sunmaker: 'Maker_2026',
};

async function until(cond: () => boolean | Promise<boolean>, ms = 30_000, step = 100): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, step));
  }
}

async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

type Orders = { total: number; orders: AccelerationOrderRow[] };
type Changes = { total: number; rows: AccelerationChangeRow[] };

describe.each(engines)('acceleration orders ($name)', (engine) => {
  let s: TestServer;
  const api = new Map<string, ApiClient>();
  let spec: DataloggerSpec;
  let live: LiveFleet | undefined;

  const as = (usr: string) => api.get(usr)!;
  const orderCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('acceleration_orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const dlRow = (pn: string) =>
    s.ctx.db
      .selectFrom('dataloggers')
      .select(['id', 'collect_interval', 'comm_method'])
      .where('pn', '=', pn)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: {
        telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false },
      },
    });
    const seeded = await seedTelemetry(s);
    spec = { ...structuredClone(seeded.fleet.dataloggers.find((d) => d.pn === NORTH)!), offlineRate: 0 };
    await s.ctx.db.updateTable('dataloggers').set({ comm_method: 'Wi-Fi' }).where('pn', '=', NORTH).execute();
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      api.set(usr, s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret }));
    }
  });
  afterAll(async () => {
    await live?.stop();
    await s?.stop();
  });

  it('quotes the protocol price from the datalogger’s devices and load count', async () => {
    const dl = await dlRow(NORTH);
    expect(Number(dl.collect_interval)).toBe(60);
    const q = (await as('owner_anna').call('queryAccelerationQuote', {
      pn: NORTH,
      type: 'history',
      interval: 10,
      storage: 3,
    })) as AccelerationQuote;
    const parameters = spec.devices.reduce(
      (n, d) => n + devcodeFunctions(getDefinition(d.devcode)!).acceleration.parameters,
      0,
    );
    expect(parameters).toBeGreaterThan(0);
    expect(q).toMatchObject({ pn: NORTH, currentInterval: 60, parameters, storageMonths: 3 });
    expect(q.price).toEqual(
      accelerationPrice({ type: 'history', interval: 10, parameters, loads: spec.devices.length, storageMonths: 3 }),
    );
    // history needs a storage time; a slower interval than today's is nothing to buy
    expect(
      await errOf(as('owner_anna').call('queryAccelerationQuote', { pn: NORTH, type: 'history', interval: 10 })),
    ).toBe(6);
    expect(
      await errOf(as('owner_anna').call('queryAccelerationQuote', { pn: NORTH, type: 'flow', interval: 60 })),
    ).toBe(271);
    expect(
      await errOf(as('owner_anna').call('queryAccelerationQuote', { pn: NORTH, type: 'flow', interval: 45 })),
    ).toBe(6);
  });

  it('refuses an order whose terms were not accepted, and a cellular datalogger; scopes who may buy', async () => {
    const before = await orderCount();
    const order = { type: 'flow', interval: 10 } as const;
    expect(
      await errOf(as('owner_anna').call('createAccelerationOrder', { pn: NORTH, ...order, termsAccepted: '0' })),
    ).toBe(7);
    expect(await errOf(as('owner_anna').call('createAccelerationOrder', { pn: NORTH, ...order } as never))).toBe(6);
    // 4G (cellular): not a Wi-Fi module — for its owner, its dealer and the operator alike
    expect((await dlRow(SOUTH)).comm_method).toBe('4G');
    for (const usr of ['owner_ben', 'dealer_south', 'operator'])
      expect(
        await errOf(as(usr).call('createAccelerationOrder', { pn: SOUTH, ...order, termsAccepted: '1' })),
        usr,
      ).toBe(9);
    // another tenant's datalogger answers like a missing one
    expect(
      await errOf(as('owner_ben').call('createAccelerationOrder', { pn: NORTH, ...order, termsAccepted: '1' })),
    ).toBe(257);
    expect(await errOf(as('dealer_south').call('queryAccelerationQuote', { pn: NORTH, ...order }))).toBe(257);
    // viewers and group accounts never buy
    expect(
      await errOf(as('viewer_cara').call('createAccelerationOrder', { pn: NORTH, ...order, termsAccepted: '1' })),
    ).toBe(11);
    expect(
      await errOf(as('group_east').call('createAccelerationOrder', { pn: NORTH, ...order, termsAccepted: '1' })),
    ).toBe(11);
    expect(await orderCount()).toBe(before);
    // the picker offers only Wi-Fi dataloggers the caller may manage
    const cands = (await as('owner_anna').call('queryAccelerationCandidates', {})) as { rows: AccelerationCandidate[] };
    expect(cands.rows.map((r) => r.pn)).toEqual([NORTH]);
    expect(((await as('owner_ben').call('queryAccelerationCandidates', {})) as { total: number }).total).toBe(0);
    expect(
      (
        (await as('dealer_north').call('queryAccelerationCandidates', { search: 'north' })) as {
          rows: AccelerationCandidate[];
        }
      ).rows.map((r) => r.pn),
    ).toContain(NORTH);
  });

  it('a paid order sends the command; the real simulator, cut off at first, reports at the new interval once back', async () => {
    // An order by the owner: unpaid, at the quoted price, audited, seen only within the scope.
    const created = (await as('owner_anna').call('createAccelerationOrder', {
      pn: NORTH,
      type: 'flow',
      interval: 10,
      method: 'card',
      termsAccepted: '1',
    })) as { orderNo: string; amount: number; status: string };
    expect(created.status).toBe('unpaid');
    const quoted = (await as('owner_anna').call('queryAccelerationQuote', {
      pn: NORTH,
      type: 'flow',
      interval: 10,
    })) as AccelerationQuote;
    expect(created.amount).toBe(quoted.price.totalMinor);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['usr', 'action', 'after'])
      .where('entity', '=', 'acceleration_order')
      .where('entity_id', '=', created.orderNo)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ usr: 'owner_anna', action: 'createAccelerationOrder' });
    const list = (usr: string) => as(usr).call('queryAccelerationOrders', { pagesize: 50 }) as Promise<Orders>;
    for (const usr of ['owner_anna', 'dealer_north', 'sunmaker', 'operator', 'group_east'])
      expect(
        (await list(usr)).orders.map((o) => o.orderNo),
        usr,
      ).toContain(created.orderNo);
    for (const usr of ['owner_ben', 'dealer_south']) expect((await list(usr)).total, usr).toBe(0);
    expect(await errOf(as('owner_ben').call('queryAccelerationOrder', { orderNo: created.orderNo }))).toBe(12);

    // The real simulator, 120× faster, three hours back (its frames are history the server accepts).
    live = new LiveFleet([spec], {
      clock: simClock({ speed: 120, start: Date.now() - 3 * 3_600_000 }),
      tickMs: 50,
      offlineSpells: false,
      publisherFor: (sp) => new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: sp.pn, token: sp.token }),
    });
    const logger = live.loggers[0]!;
    live.start();
    await until(() => logger.publisher.connected && s.ctx.services.telemetry.isConnected(NORTH) === true);
    await until(() => logger.sent >= 3);
    // Cut it off, then pay: the change waits.
    await logger.goOffline();
    await until(() => s.ctx.services.telemetry.isConnected(NORTH) === false);
    await s.ctx.db.updateTable('dataloggers').set({ status: 0 }).where('pn', '=', NORTH).execute();
    // Paid through the payment module: payOrder → the sandbox's hosted checkout → its signed webhook.
    const returnPath = '/generalNew/setting/collectionFrequencyRecord?order=' + created.orderNo;
    const { payUrl } = (await as('owner_anna').call('payOrder', {
      kind: 'acceleration',
      orderNo: created.orderNo,
      method: 'card',
      returnPath,
    })) as { payUrl: string };
    expect(payUrl).toMatch(/^\/pay\/sandbox\//);
    // only the buyer pays its order
    expect(
      await errOf(as('owner_ben').call('payOrder', { kind: 'acceleration', orderNo: created.orderNo, method: 'card' })),
    ).toBe(372);
    const paidAt = await fetch(s.url + payUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=pay',
      redirect: 'manual',
    });
    expect(paidAt.status).toBe(303);
    expect(paidAt.headers.get('location')).toContain(returnPath);
    await until(
      async () =>
        (await as('owner_anna').call('queryAccelerationOrder', { orderNo: created.orderNo })).status === 'paid',
    );
    // paying again, or a duplicate confirmation, changes nothing
    expect(
      await errOf(
        as('owner_anna').call('payOrder', { kind: 'acceleration', orderNo: created.orderNo, method: 'card' }),
      ),
    ).toBe(271);
    expect(
      await s.ctx.dbh.transaction(() =>
        s.ctx.services.acceleration.paid(created.orderNo, 'sandbox-ref-2', s.clock.now()),
      ),
    ).toBe(false);
    await s.ctx.services.accelerationDelivery.sweep();
    const changes = () => as('owner_anna').call('queryAccelerationChanges', { pagesize: 50 }) as Promise<Changes>;
    let c = (await changes()).rows.find((r) => r.orderNo === created.orderNo)!;
    expect(c).toMatchObject({ pn: NORTH, fromInterval: 60, toInterval: 10, status: 'pending', lastError: 'offline' });
    expect(Number((await dlRow(NORTH)).collect_interval)).toBe(60);
    expect(logger.spec.collectInterval).toBe(60);

    // Back online: the next sweeps deliver it; the simulator acks and the platform records it.
    logger.goOnline();
    await until(async () => {
      await s.ctx.services.accelerationDelivery.sweep();
      c = (await changes()).rows.find((r) => r.orderNo === created.orderNo)!;
      return c.status !== 'pending';
    });
    expect(c).toMatchObject({ status: 'applied', ackInterval: 10, attempts: 1, lastError: '' });
    expect(c.appliedAt).not.toBeNull();
    expect(logger.spec.collectInterval).toBe(10);
    expect(Number((await dlRow(NORTH)).collect_interval)).toBe(10);
    const order = (await list('owner_anna')).orders.find((o) => o.orderNo === created.orderNo)!;
    expect(order).toMatchObject({ status: 'paid', change: 'applied', interval: 10, fromInterval: 60 });
    expect(order.providerRef).not.toBe('');
    const dlAudit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('entity', '=', 'datalogger')
      .where('entity_id', '=', NORTH)
      .where('action', '=', 'accelerationDelivery')
      .execute();
    expect(dlAudit).toHaveLength(1);
    expect(JSON.parse(dlAudit[0]!.before!)).toEqual({ collect_interval: 60 });
    // only one change for the order, however often it was paid or swept
    expect((await changes()).rows.filter((r) => r.orderNo === created.orderNo)).toHaveLength(1);

    // The samples stored after the change are 10 s apart (before it: 60 s).
    const since = logger.sim.lastTs!;
    const device = await s.ctx.db
      .selectFrom('devices')
      .select('id')
      .where('pn', '=', NORTH)
      .where('sn', '=', spec.devices[0]!.sn)
      .executeTakeFirstOrThrow();
    const stored = async (from: number, to = Number.MAX_SAFE_INTEGER) => {
      await s.ctx.services.telemetry.ingest.drain();
      return (
        await s.ctx.db
          .selectFrom('samples')
          .select('ts')
          .where('device_id', '=', device.id)
          .where('ts', '>', from)
          .where('ts', '<=', to)
          .orderBy('ts')
          .execute()
      ).map((r) => Number(r.ts));
    };
    await until(async () => (await stored(since)).length >= 6);
    const after = await stored(since);
    const gaps = after.slice(1).map((t, i) => t - after[i]!);
    expect(new Set(gaps)).toEqual(new Set([10_000]));
    const earlier = await stored(since - 10 * 60_000, since - 60_000);
    const earlierGaps = earlier.slice(1).map((t, i) => t - earlier[i]!);
    expect(earlierGaps.length).toBeGreaterThan(0);
    expect(new Set(earlierGaps)).toEqual(new Set([60_000]));
  });

  it('the demo makes one datalogger without a flow card Wi-Fi, once', async () => {
    expect(await seedDemoAcceleration(s)).toBe(1);
    expect(await seedDemoAcceleration(s)).toBe(0);
    const ben = (await as('owner_ben').call('queryAccelerationCandidates', {})) as { rows: AccelerationCandidate[] };
    expect(ben.rows.map((r) => r.pn)).toEqual([DEMO_WIFI_PN]);
    const q = (await as('owner_ben').call('queryAccelerationQuote', {
      pn: DEMO_WIFI_PN,
      type: 'flow',
      interval: 30,
    })) as AccelerationQuote;
    expect(q.price.totalMinor).toBeGreaterThan(0);
  });
});
