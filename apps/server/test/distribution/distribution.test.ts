import { ROLE, UPLOAD_RULES, errorMessage, type AuthDat, type DistributeDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEALER_STOCK, DEMO_MAKER_STOCK, DEMO_ORDER } from '../../src/demo/seed-distribution.js';
import type { DistributionRepository } from '../../src/modules/distribution/distribution.repository.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { buildXls, buildXlsx } from './sheets.js';
import { datalogger, idOf, makeAccount, prepare, repo, uploadSheet } from './helpers.js';

describe.each(engines)('datalogger distribution ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const as = (usr: string) => sessions.get(usr)!;
  const call = <T = DistributeDat>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(as(usr), action, params);
  let dora = 0;
  let ella = 0;
  let subDealer = 0;
  let otherMaker = 0;

  beforeAll(async () => {
    s = await startTestServer(engine);
    sessions = await prepare(s);
    dora = await makeAccount(s, 'owner_doris', ROLE.OWNER, 'dealer_north');
    ella = await makeAccount(s, 'owner_ella', ROLE.OWNER, 'dealer_north');
    subDealer = await makeAccount(s, 'dealer_north_kiel', ROLE.DISTRIBUTOR, 'dealer_north');
    otherMaker = await makeAccount(s, 'othermaker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'OM' });
    await repo(s).insertStock('OMAKER00000001', '', null, otherMaker, 'OM');
  });
  afterAll(async () => {
    await s?.stop();
  });

  describe('distAddCollector', () => {
    it('adds a new PN to a distributor\'s stock, under its manufacturer', async () => {
      expect((await call('dealer_north', 'distAddCollector', { Dpn: 'SWNORTH0000301', alias: 'Spare' })).err).toBe(0);
      expect(await datalogger(s, 'SWNORTH0000301')).toMatchObject({
        admin_id: await idOf(s, 'dealer_north'),
        vendor_id: await idOf(s, 'sunmaker'),
        owner_id: null,
        project_id: null,
        alias: 'Spare',
      });
      const audit = await s.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'distAddCollector')
        .where('entity_id', '=', 'SWNORTH0000301')
        .execute();
      expect(audit).toHaveLength(1);
    });

    it('answers 522 for a PN someone already has, 259 for a bad PN, 273 for another manufacturer\'s', async () => {
      expect((await call('dealer_north', 'distAddCollector', { Dpn: 'SWNORTH0000301' })).err).toBe(522);
      expect((await call('dealer_south', 'distAddCollector', { Dpn: 'SWNORTH0000001' })).err).toBe(522);
      expect((await call('sunmaker', 'distAddCollector', { Dpn: DEMO_MAKER_STOCK[0]! })).err).toBe(522);
      for (const bad of ['swnorth0000302', 'SWNORTH000030', 'SWNORTH00003021', 'SW-NORTH000030']) {
        expect((await call('dealer_north', 'distAddCollector', { Dpn: bad })).err, bad).toBe(259);
      }
      expect((await call('dealer_north', 'distAddCollector', { Dpn: 'OMAKER00000001' })).err).toBe(273);
      expect((await call('sunmaker', 'distAddCollector', { Dpn: 'OMAKER00000001' })).err).toBe(273);
      expect((await datalogger(s, 'OMAKER00000001'))!.admin_id).toBeNull();
    });

    it('answers 1025 for the operator, 11 for owners and for a sub-administrator without the account module', async () => {
      expect((await call('operator', 'distAddCollector', { Dpn: 'SWNORTH0000303' })).err).toBe(1025);
      expect((await call('owner_anna', 'distAddCollector', { Dpn: 'SWNORTH0000303' })).err).toBe(11);
      expect((await call('north_ops', 'distAddCollector', { Dpn: 'SWNORTH0000303' })).err).toBe(11);
      expect(await datalogger(s, 'SWNORTH0000303')).toBeUndefined();
    });
  });

  describe('distributeCollector', () => {
    it('assigns valid PNs to an owner and reports every other one with its code', async () => {
      const res = await call('dealer_north', 'distributeCollector', {
        uid: dora,
        pn: `${DEMO_DEALER_STOCK[0]},SWSOUTH0000001,SWNORTH0000001,notapn,${DEMO_DEALER_STOCK[0]},SWNORTH0999999`,
      });
      expect(res.err).toBe(0);
      expect(res.dat!.result.map((r) => [r.row, r.pn, r.err])).toEqual([
        [1, DEMO_DEALER_STOCK[0], 0],
        [2, 'SWSOUTH0000001', 1792], // another distributor's
        [3, 'SWNORTH0000001', 772], // already bound to owner_anna
        [4, 'notapn', 259],
        [5, DEMO_DEALER_STOCK[0], 1029], // duplicate
        [6, 'SWNORTH0999999', 1792], // missing answers like another's
      ]);
      expect(res.dat).toMatchObject({ total: 6, ok: 1, failed: 5 });
      expect(res.dat!.result[1]).toMatchObject({ desc: 'ERR_COLLECTOR_NOT_BELONG_DIST', msg: errorMessage(1792, 'en_US') });
      expect(res.dat!.result[0]!.msg).toBe('');
      // The owner had no plant: a default plant named after the PN holds the datalogger and its devices.
      const dl = (await datalogger(s, DEMO_DEALER_STOCK[0]!))!;
      const plant = await s.ctx.db.selectFrom('projects').selectAll().where('owner_id', '=', dora).execute();
      expect(plant.map((p) => [p.name, p.is_default])).toEqual([[DEMO_DEALER_STOCK[0], 1]]);
      expect(dl).toMatchObject({ owner_id: dora, project_id: plant[0]!.id, admin_id: await idOf(s, 'dealer_north') });
      const devs = await s.ctx.db.selectFrom('devices').select('project_id').where('datalogger_id', '=', dl.id).execute();
      expect(devs.length).toBeGreaterThan(0);
      expect(devs.every((d) => d.project_id === plant[0]!.id)).toBe(true);
      // The other ones are unchanged.
      expect((await datalogger(s, 'SWSOUTH0000001'))!.owner_id).toBe(await idOf(s, 'owner_ben'));
    });

    it('lets the owner see exactly the dataloggers it was given, with their devices', async () => {
      const login = await s.login('owner_doris', 'Secret_2026');
      expect(login.err).toBe(0);
      const dls = await s.call<{ collector: Array<{ pn: string }> }>(login.dat!, 'webQueryCollectorsEs', { page: 0, pagesize: 50 });
      expect(dls.dat!.collector.map((c) => c.pn)).toEqual([DEMO_DEALER_STOCK[0]]);
      const devs = await s.call<{ device: Array<{ pn: string }> }>(login.dat!, 'webQueryDeviceEs', { page: 0, pagesize: 50 });
      expect(devs.dat!.device.length).toBeGreaterThan(0);
      expect(new Set(devs.dat!.device.map((d) => d.pn))).toEqual(new Set([DEMO_DEALER_STOCK[0]]));
    });

    it('adds a second datalogger to the owner\'s existing default plant, with the alias given', async () => {
      const res = await call('dealer_north', 'distributeCollector', { uid: dora, pn: DEMO_DEALER_STOCK[1]!, alias: 'Garage' });
      expect(res.dat!.result[0]).toMatchObject({ err: 0, alias: 'Garage' });
      const plants = await s.ctx.db.selectFrom('projects').select('id').where('owner_id', '=', dora).execute();
      expect(plants).toHaveLength(1);
      expect(await datalogger(s, DEMO_DEALER_STOCK[1]!)).toMatchObject({ owner_id: dora, project_id: plants[0]!.id, alias: 'Garage' });
      // One alias names one datalogger.
      expect((await call('dealer_north', 'distributeCollector', { uid: dora, pn: 'SWNORTH0000301,SWNORTH0000103', alias: 'x' })).err).toBe(6);
    });

    it('moves stock to a subordinate distributor, which then holds it (the giver no longer does)', async () => {
      const res = await call('dealer_north', 'distributeCollector', { uid: subDealer, pn: 'SWNORTH0000301' });
      expect(res.dat!.result[0]!.err).toBe(0);
      expect(await datalogger(s, 'SWNORTH0000301')).toMatchObject({ admin_id: subDealer, owner_id: null });
      const again = await call('dealer_north', 'distributeCollector', { uid: ella, pn: 'SWNORTH0000301' });
      expect(again.dat!.result[0]!.err).toBe(1792);
    });

    it('refuses targets out of reach or missing (261), not created by this admin (1031), not owner/distributor (261)', async () => {
      const pn = DEMO_DEALER_STOCK[2]!;
      expect((await call('dealer_north', 'distributeCollector', { uid: await idOf(s, 'owner_ben'), pn })).err).toBe(261);
      expect((await call('dealer_north', 'distributeCollector', { uid: 999999, pn })).err).toBe(261);
      expect((await call('dealer_north', 'distributeCollector', { uid: await idOf(s, 'viewer_cara'), pn })).err).toBe(261);
      expect((await call('dealer_north', 'distributeCollector', { uid: await idOf(s, 'dealer_north'), pn })).err).toBe(261);
      const foreignMade = await makeAccount(s, 'owner_fritz', ROLE.OWNER, 'dealer_north', { createdBy: 'sunmaker' });
      const res = await call('dealer_north', 'distributeCollector', { uid: foreignMade, pn });
      expect(res).toMatchObject({ err: 1031, desc: 'ERR_USR_NOT_CREATED_BY_ADMIN(uid)' });
      expect((await datalogger(s, pn))!.owner_id).toBeNull();
      // owners, viewers and another dealer cannot distribute at all
      expect((await call('owner_anna', 'distributeCollector', { uid: dora, pn })).err).toBe(11);
      expect((await call('dealer_south', 'distributeCollector', { uid: dora, pn })).err).toBe(261);
    });

    it('lets a manufacturer distribute only its own manufacturer\'s dataloggers (273)', async () => {
      const south = await idOf(s, 'dealer_south');
      const res = await call('sunmaker', 'distributeCollector', { uid: south, pn: `${DEMO_MAKER_STOCK[0]},OMAKER00000001` });
      expect(res.dat!.result.map((r) => r.err)).toEqual([0, 273]);
      expect(await datalogger(s, DEMO_MAKER_STOCK[0]!)).toMatchObject({ admin_id: south, owner_id: null });
      expect((await datalogger(s, 'OMAKER00000001'))!.admin_id).toBeNull();
    });

    it('refuses more than 256 PNs (13)', async () => {
      const pns = Array.from({ length: 257 }, (_, i) => `SWNORTH${String(i).padStart(7, '0')}`).join(',');
      expect((await call('dealer_north', 'distributeCollector', { uid: dora, pn: pns })).err).toBe(13);
    });
  });

  describe('distributeCollectorBySheet', () => {
    it('assigns the valid rows of an xlsx and reports each row (blank rows skipped, duplicates 1029)', async () => {
      const res = await uploadSheet(
        s,
        as('dealer_north'),
        ella,
        buildXlsx([
          [DEMO_DEALER_STOCK[2]!, 'Roof'],
          [],
          [DEMO_DEALER_STOCK[3]!, 42],
          [DEMO_DEALER_STOCK[2]!, 'again'],
          ['bad pn', 'x'],
          ['SWSOUTH0000002', null],
        ]),
        'stock.xlsx',
        'de_DE',
      );
      expect(res.err).toBe(0);
      expect(res.dat!.result.map((r) => [r.row, r.pn, r.alias, r.err])).toEqual([
        [1, DEMO_DEALER_STOCK[2], 'Roof', 0],
        [3, DEMO_DEALER_STOCK[3], '42', 0],
        [4, DEMO_DEALER_STOCK[2], 'again', 1029],
        [5, 'bad pn', 'x', 259],
        [6, 'SWSOUTH0000002', '', 1792],
      ]);
      expect(res.dat!.result[2]!.msg).toBe(errorMessage(1029, 'de_DE'));
      expect(res.dat!.result[2]!.msg).not.toBe(errorMessage(1029, 'en_US'));
      expect(await datalogger(s, DEMO_DEALER_STOCK[2]!)).toMatchObject({ owner_id: ella, alias: 'Roof' });
      expect(await datalogger(s, DEMO_DEALER_STOCK[3]!)).toMatchObject({ owner_id: ella, alias: '42' });
      const login = await s.login('owner_ella', 'Secret_2026');
      const dls = await s.call<{ collector: Array<{ pn: string }> }>(login.dat!, 'webQueryCollectorsEs', { page: 0, pagesize: 50 });
      expect(dls.dat!.collector.map((c) => c.pn).sort()).toEqual([DEMO_DEALER_STOCK[2], DEMO_DEALER_STOCK[3]]);
    });

    it('reads an xls (BIFF8) with formula and number cells', async () => {
      await s.call(as('dealer_north'), 'distAddCollector', { Dpn: 'SWNORTH0000401' });
      const res = await uploadSheet(
        s,
        as('dealer_north'),
        ella,
        buildXls([[{ formula: '"SWNORTH"&"0000401"', result: 'SWNORTH0000401' }, 7.5]]),
        'stock.xls',
      );
      expect(res.dat!.result).toEqual([{ row: 1, pn: 'SWNORTH0000401', alias: '7.5', err: 0, desc: 'ERR_NONE', msg: '' }]);
      expect((await datalogger(s, 'SWNORTH0000401'))!.owner_id).toBe(ella);
    });

    it('refuses broken files and other extensions (6), oversize files and more than 1000 rows (13), assigning nothing', async () => {
      const dn = as('dealer_north');
      await s.call(dn, 'distAddCollector', { Dpn: 'SWNORTH0000402' });
      expect((await uploadSheet(s, dn, ella, new TextEncoder().encode('SWNORTH0000402,x\n'), 'stock.xlsx')).err).toBe(6);
      expect((await uploadSheet(s, dn, ella, buildXlsx([['SWNORTH0000402']]), 'stock.xls')).err).toBe(6);
      expect((await uploadSheet(s, dn, ella, buildXlsx([['SWNORTH0000402']]), 'stock.csv')).err).toBe(6);
      const big = new Uint8Array(UPLOAD_RULES.sheet.maxBytes + 1);
      expect((await uploadSheet(s, dn, ella, big, 'stock.xlsx')).err).toBe(13);
      const rows = Array.from({ length: 1001 }, (_, i) => [i === 0 ? 'SWNORTH0000402' : `SWNORTH${String(500000 + i).padStart(7, '0')}`]);
      expect((await uploadSheet(s, dn, ella, buildXlsx(rows), 'stock.xlsx')).err).toBe(13);
      expect((await datalogger(s, 'SWNORTH0000402'))!.owner_id).toBeNull();
      // 1000 rows are fine: a result per row.
      const ok = await uploadSheet(s, dn, ella, buildXlsx(rows.slice(0, 1000)), 'stock.xlsx');
      expect(ok.dat).toMatchObject({ total: 1000, ok: 1, failed: 999 });
      expect((await datalogger(s, 'SWNORTH0000402'))!.owner_id).toBe(ella);
    });
  });

  describe('distributeCollectorByOrder', () => {
    const order = (usr: string, orderNo: string, uid: number, lang = 'en_US') =>
      s.call<DistributeDat>(as(usr), 'distributeCollectorByOrder', { orderNo, uid, i18n: lang });

    it('refuses with the order-allocation codes and wording', async () => {
      const r = repo(s);
      const north = await idOf(s, 'dealer_north');
      await s.call(as('dealer_north'), 'distAddCollector', { Dpn: 'SWNORTH0000501' });
      await r.insertOrder({ orderNo: 'SO-REJECTED', vendorCode: 'SW', distId: north, status: 1, pns: ['SWNORTH0000501'] });
      await r.insertOrder({ orderNo: 'SO-BADCODE', vendorCode: 'ZZ', distId: north, pns: ['SWNORTH0000501'] });
      await r.insertOrder({ orderNo: 'SO-EMPTY', vendorCode: 'SW', distId: north, pns: [] });
      await r.insertOrder({ orderNo: 'SO-FOREIGN-PN', vendorCode: 'SW', distId: north, pns: ['SWNORTH0000501', 'SWSOUTH0000001'] });
      await r.insertOrder({ orderNo: 'SO-OTHER-MAKER', vendorCode: 'OM', distId: north, pns: ['SWNORTH0000501'] });
      await r.insertOrder({ orderNo: 'SO-BOUND-PN', vendorCode: 'SW', distId: north, pns: ['SWNORTH0000501', 'SWNORTH0000001'] });
      const res = await order('dealer_south', DEMO_ORDER.orderNo, dora);
      expect(res).toMatchObject({ err: 7, msg: errorMessage(7, 'en_US', 'orderAllocation') });
      expect(res.msg).toBe('Allocation refused');
      expect((await order('dealer_north', 'SO-NO-SUCH', dora)).err).toBe(7);
      expect((await order('dealer_north', 'SO-REJECTED', dora)).err).toBe(8);
      expect((await order('dealer_north', 'SO-BADCODE', dora)).err).toBe(23);
      expect((await order('dealer_north', 'SO-EMPTY', dora)).err).toBe(12);
      expect((await order('dealer_north', 'SO-FOREIGN-PN', dora)).err).toBe(259);
      expect((await order('dealer_north', 'SO-OTHER-MAKER', dora)).err).toBe(259);
      expect((await order('dealer_north', 'SO-BOUND-PN', dora)).err).toBe(772);
      const missing = await order('dealer_north', DEMO_ORDER.orderNo, 999999, 'fr_FR');
      expect(missing).toMatchObject({ err: 261, msg: errorMessage(261, 'fr_FR', 'orderAllocation') });
      // All or nothing: no datalogger of a refused order moved.
      expect((await datalogger(s, 'SWNORTH0000501'))!.owner_id).toBeNull();
      for (const pn of DEMO_ORDER.pns) expect((await datalogger(s, pn))!.owner_id).toBeNull();
    });

    it('answers 1 "Allocation failed" when a concurrent call moves a datalogger between the checks and the writes, and moves nothing', async () => {
      const north = await idOf(s, 'dealer_north');
      const pns = ['SWNORTH0000601', 'SWNORTH0000602'];
      for (const Dpn of pns) expect((await s.call(as('dealer_north'), 'distAddCollector', { Dpn })).err).toBe(0);
      await repo(s).insertOrder({ orderNo: 'SO-RACE', vendorCode: 'SW', distId: north, pns });
      // The live repository reads the stock, then "another call" hands the second datalogger to a
      // sub-dealer before this call writes (in its transaction, as a committed concurrent write looks).
      const live = (s.ctx.services.distribution as unknown as { deps: { repo: DistributionRepository } }).deps.repo;
      const byPns = live.byPns.bind(live);
      live.byPns = async (list) => {
        const rows = await byPns(list);
        const raced = rows.get('SWNORTH0000602');
        if (raced) await live.setAdmin(raced.id, subDealer);
        return rows;
      };
      try {
        const res = await order('dealer_north', 'SO-RACE', dora, 'de_DE');
        expect(res).toMatchObject({ err: 1, msg: errorMessage(1, 'de_DE', 'orderAllocation') });
        expect(errorMessage(1, 'en_US', 'orderAllocation')).toBe('Allocation failed');
        // the same race in a list assignment fails that row only (general wording)
        const list = await call('dealer_north', 'distributeCollector', { uid: dora, pn: pns.join(',') });
        expect(list.dat!.result.map((r) => r.err)).toEqual([0, 1]);
        expect(list.dat).toMatchObject({ ok: 1, failed: 1 });
        expect(list.dat!.result[1]!.msg).toBe(errorMessage(1, 'en_US'));
      } finally {
        live.byPns = byPns;
      }
      // the order call rolled back (else the list call would answer 772 for the first row); the list call bound only the first (its "concurrent" move of the
      // second committed with it)
      expect((await repo(s).order('SO-RACE'))!.bound_to).toBeNull();
      expect((await datalogger(s, 'SWNORTH0000602'))!).toMatchObject({ owner_id: null, admin_id: subDealer });
      expect((await datalogger(s, 'SWNORTH0000601'))!.owner_id).toBe(dora);
    });

    it('assigns every datalogger of the order once; a second allocation is 772', async () => {
      const res = await order('dealer_north', DEMO_ORDER.orderNo, dora);
      expect(res.err).toBe(0);
      expect(res.dat).toMatchObject({ total: 2, ok: 2, failed: 0 });
      for (const pn of DEMO_ORDER.pns) expect((await datalogger(s, pn))!.owner_id).toBe(dora);
      const row = await repo(s).order(DEMO_ORDER.orderNo);
      expect(row).toMatchObject({ bound_to: dora });
      const again = await order('dealer_north', DEMO_ORDER.orderNo, ella);
      expect(again).toMatchObject({ err: 772, msg: 'The order already has bound dataloggers' });
    });
  });
});
