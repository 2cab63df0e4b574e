import {
  ROLE,
  rc4EncryptHex,
  sha1Hex,
  type AccountListDat,
  type AuthDat,
  type CollectorDetail,
  type CollectorMoveDat,
  type FleetDeviceRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { datalogger, idOf, makeAccount, prepare } from '../distribution/helpers.js';

/**
 * Issue 14, account / device / datalogger of the operator: the operator finds accounts (username,
 * phone, e-mail, held PN), dataloggers (PN) and devices (PN, SN, devcode, owner) across
 * manufacturers; it moves a datalogger to another manufacturer (276 when its owner's tree does not
 * allow it) or another owner (273 when the owner's manufacturer is not the datalogger's), audited,
 * nothing written on a refusal; no other role may move.
 */
describe.each(engines)('operator fleet ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  let otherMaker = 0;
  let omDealer = 0;
  let omOwner = 0;
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);
  const auditCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const snapshot = async (pn: string) => {
    const dl = await datalogger(s, pn);
    const devices = await s.ctx.db
      .selectFrom('devices')
      .select(['id', 'project_id'])
      .where('pn', '=', pn)
      .orderBy('id')
      .execute();
    return { dl, devices, audit: await auditCount() };
  };

  beforeAll(async () => {
    s = await startTestServer(engine);
    sessions = await prepare(s);
    otherMaker = await makeAccount(s, 'othermaker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'OM' });
    omDealer = await makeAccount(s, 'om_dealer', ROLE.DISTRIBUTOR, 'othermaker');
    omOwner = await makeAccount(s, 'om_owner', ROLE.OWNER, 'om_dealer');
    await s.ctx.db
      .updateTable('accounts')
      .set({ mobile: '13900139077', email: 'om.owner@fleet.example' })
      .where('id', '=', omOwner)
      .execute();
    const r = await s.login('om_dealer', 'Secret_2026');
    expect(r.err).toBe(0);
    sessions.set('om_dealer', r.dat!);
    // a datalogger of the other manufacturer, in om_dealer's stock, with one device
    expect((await call('om_dealer', 'distAddCollector', { Dpn: 'OMX00000000001' })).err).toBe(0);
    const dl = (await datalogger(s, 'OMX00000000001'))!;
    expect(dl.vendor_id).toBe(otherMaker);
    await s.ctx.db
      .insertInto('devices')
      .values({
        datalogger_id: dl.id,
        pn: 'OMX00000000001',
        devcode: 5121,
        devaddr: 1,
        sn: 'OMSN0000000001',
        alias: 'Other inverter',
        devtype: 512,
        device_type: 2,
        model: '',
        brand: '',
        status: 1,
        firmware: '',
        load: 0,
        project_id: null,
        last_sample_at: null,
        created_at: s.clock.now(),
      })
      .execute();
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('the operator finds accounts by username, phone, e-mail and PN across manufacturers', async () => {
    const find = async (usr: string, search: string) => {
      const r = await call<AccountListDat>(usr, 'webQueryUsrEs', { search, pagesize: 50 });
      expect(r.err).toBe(0);
      return r.dat!.account.map((a) => a.usr).sort();
    };
    expect(await find('operator', '13900139077')).toEqual(['om_owner']);
    expect(await find('operator', 'OM.OWNER@fleet')).toEqual(['om_owner']);
    expect(await find('operator', '13800138001')).toEqual(['owner_dora']);
    expect(await find('operator', 'om_dea')).toEqual(['om_dealer']);
    // a held PN finds its vendor and its dealer
    expect(await find('operator', 'OMX0000000000')).toEqual(['om_dealer', 'othermaker']);
    // the phone is shown to the operator
    const row = (await call<AccountListDat>('operator', 'webQueryUsrEs', { search: '13900139077' })).dat!.account[0]!;
    expect(row.mobile).toBe('13900139077');
    // a manufacturer does not find another manufacturer's accounts
    expect(await find('sunmaker', '13900139077')).toEqual([]);
    expect(await find('sunmaker', '13800138001')).toEqual(['owner_dora']);
  });

  it("the operator disables, enables and resets the password of another manufacturer's owner", async () => {
    expect((await call('operator', 'disableOrEnableAccount', { uid: omOwner, enable: 0 })).err).toBe(0);
    expect((await s.login('om_owner', 'Secret_2026')).err).not.toBe(0);
    expect((await call('operator', 'disableOrEnableAccount', { uid: omOwner, enable: 1 })).err).toBe(0);
    const secret = sessions.get('operator')!.secret;
    const pwd = { pwd: rc4EncryptHex(secret, sha1Hex('Fleet_2027')), pwdtext: rc4EncryptHex(secret, 'Fleet_2027') };
    expect((await call('operator', 'resetAccountPassword', { uid: omOwner, ...pwd })).err).toBe(0);
    expect((await s.login('om_owner', 'Fleet_2027')).err).toBe(0);
    // sunmaker cannot reach othermaker's owner
    expect((await call('sunmaker', 'disableOrEnableAccount', { uid: omOwner, enable: 0 })).err).toBe(11);
  });

  it('the operator lists dataloggers of every manufacturer by PN', async () => {
    const list = async (usr: string, search: string) =>
      (await call<{ total: number; collector: Array<{ pn: string }> }>(usr, 'webQueryCollectorsEs', { search })).dat!;
    expect((await list('operator', 'omx0000')).collector.map((c) => c.pn)).toEqual(['OMX00000000001']);
    expect((await list('operator', 'SWSOUTH0000001')).collector.map((c) => c.pn)).toEqual(['SWSOUTH0000001']);
    expect((await list('sunmaker', 'omx0000')).total).toBe(0);
    const all = await call<{ total: number }>('operator', 'webQueryCollectorsEs', { pagesize: 10 });
    const n = await s.ctx.db
      .selectFrom('dataloggers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(all.dat!.total).toBe(Number(n.n));
  });

  it('the operator lists every device of the platform, searchable by PN, SN, devcode and owner', async () => {
    type Dat = { total: number; device: FleetDeviceRow[] };
    const list = async (params: Record<string, string | number>) => {
      const r = await call<Dat>('operator', 'queryFleetDevices', { pagesize: 100, ...params });
      expect(r.err).toBe(0);
      return r.dat!;
    };
    const count = async (where?: (q: ReturnType<typeof base>) => ReturnType<typeof base>) => {
      const q = where ? where(base()) : base();
      return Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    };
    const base = () => s.ctx.db.selectFrom('devices');
    const all = await list({});
    expect(all.total).toBe(await count());
    expect(all.total).toBeGreaterThan(5);

    const om = await list({ search: 'omsn00' });
    expect(om.device).toEqual([
      expect.objectContaining({
        pn: 'OMX00000000001',
        sn: 'OMSN0000000001',
        devcode: 5121,
        vendorUid: otherMaker,
        vendorUsr: 'othermaker',
        usr: '',
      }),
    ]);
    expect((await list({ search: 'SWSOUTH0000001' })).device.map((d) => d.sn).sort()).toEqual([
      'SW5121S0000101',
      'SW5124S0000102',
    ]);
    const byCode = await list({ search: '5122' });
    expect(byCode.total).toBe(await count((q) => q.where('devcode', '=', 5122)));
    expect(byCode.device.every((d) => d.devcode === 5122)).toBe(true);
    const ben = await list({ search: 'owner_ben' });
    expect(ben.device.length).toBe(4);
    expect(ben.device.every((d) => d.usr === 'owner_ben' && d.vendorUsr === 'sunmaker' && d.pname !== '')).toBe(true);
    expect((await list({ vendorUid: otherMaker })).device.map((d) => d.sn)).toEqual(['OMSN0000000001']);
    // server paging
    const p1 = await list({ pagesize: 2, page: 1 });
    expect(p1.device).toHaveLength(2);
    expect(p1.device[0]!.sn).toBe(all.device[2]!.sn);
    // operator only
    expect((await call('sunmaker', 'queryFleetDevices')).err).toBe(11);
    expect((await call('dealer_north', 'queryFleetDevices')).err).toBe(11);
  });

  it('moves a datalogger to another manufacturer: 276 when its owner cannot follow, dealer of the old one cleared', async () => {
    // owner_ben is under sunmaker: his datalogger cannot go to othermaker, nothing changes
    const before = await snapshot('SWSOUTH0000002');
    const refused = await call('operator', 'moveCollectorVendor', { pn: 'SWSOUTH0000002', vendorUid: otherMaker });
    expect(refused.err).toBe(276);
    expect(await snapshot('SWSOUTH0000002')).toEqual(before);
    // not a manufacturer, missing PN, already its manufacturer
    const dealer = await idOf(s, 'dealer_north');
    expect((await call('operator', 'moveCollectorVendor', { pn: 'SWNORTH0000101', vendorUid: dealer })).err).toBe(261);
    expect((await call('operator', 'moveCollectorVendor', { pn: 'ZZNOPE00000001', vendorUid: otherMaker })).err).toBe(
      257,
    );
    const maker = await idOf(s, 'sunmaker');
    expect((await call('operator', 'moveCollectorVendor', { pn: 'SWNORTH0000101', vendorUid: maker })).err).toBe(271);
    // other roles cannot call it
    for (const usr of ['sunmaker', 'dealer_north', 'owner_anna'])
      expect((await call(usr, 'moveCollectorVendor', { pn: 'SWNORTH0000101', vendorUid: otherMaker })).err).toBe(11);
    expect((await datalogger(s, 'SWNORTH0000101'))!.vendor_id).toBe(maker);

    // the details tell the web who may move: the operator only
    const can = async (usr: string) =>
      (await call<CollectorDetail>(usr, 'queryCollectorDetail', { pn: 'SWNORTH0000101' })).dat!.can.move;
    expect(await can('operator')).toBe(true);
    expect(await can('sunmaker')).toBe(false);

    // dealer_north's stock goes to othermaker: the dealer (sunmaker's) is cleared
    const auditBefore = await auditCount();
    const moved = await call<CollectorMoveDat>('operator', 'moveCollectorVendor', {
      pn: 'SWNORTH0000101',
      vendorUid: otherMaker,
    });
    expect(moved).toMatchObject({
      err: 0,
      dat: { pn: 'SWNORTH0000101', vendorUid: otherMaker, vendorUsr: 'othermaker', adminUid: 0 },
    });
    expect(await datalogger(s, 'SWNORTH0000101')).toMatchObject({
      vendor_id: otherMaker,
      admin_id: null,
      owner_id: null,
    });
    expect(await auditCount()).toBe(auditBefore + 1);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'datalogger')
      .where('entity_id', '=', 'SWNORTH0000101')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'moveCollectorVendor', usr: 'operator' });
    expect(JSON.parse(audit.before!)).toEqual({ vendor_id: maker, admin_id: dealer, owner_id: null });
    expect(JSON.parse(audit.after!)).toEqual({ vendor_id: otherMaker, admin_id: null, owner_id: null });
    // its old dealer no longer sees it; the new manufacturer does
    expect((await call('dealer_north', 'queryCollectorDetail', { pn: 'SWNORTH0000101' })).err).toBe(257);
    const om = await s.login('othermaker', 'Secret_2026');
    expect((await s.call(om.dat!, 'queryCollectorDetail', { pn: 'SWNORTH0000101' })).err).toBe(0);
  });

  it('moves a datalogger to another owner: 273 across manufacturers, plant, dealer and devices follow', async () => {
    const anna = await idOf(s, 'owner_anna');
    const ben = await idOf(s, 'owner_ben');
    const annaPlant = Number(
      (
        await s.ctx.db
          .selectFrom('projects')
          .select('id')
          .where('owner_id', '=', anna)
          .orderBy('is_default', 'desc')
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    const benPlant = (await datalogger(s, 'SWSOUTH0000002'))!.project_id!;

    // othermaker's datalogger cannot go to sunmaker's owner: nothing written
    const before = await snapshot('OMX00000000001');
    expect((await call('operator', 'moveCollectorOwner', { pn: 'OMX00000000001', uid: anna })).err).toBe(273);
    expect(await snapshot('OMX00000000001')).toEqual(before);
    // sunmaker's datalogger cannot go to othermaker's owner
    const before2 = await snapshot('SWSOUTH0000002');
    expect((await call('operator', 'moveCollectorOwner', { pn: 'SWSOUTH0000002', uid: omOwner })).err).toBe(273);
    expect(await snapshot('SWSOUTH0000002')).toEqual(before2);
    // not an owner, not the owner's plant
    expect((await call('operator', 'moveCollectorOwner', { pn: 'SWSOUTH0000002', uid: omDealer })).err).toBe(1024);
    expect(
      (await call('operator', 'moveCollectorOwner', { pn: 'SWSOUTH0000002', uid: anna, plantid: benPlant })).err,
    ).toBe(260);
    expect(await snapshot('SWSOUTH0000002')).toEqual(before2);
    // other roles cannot call it
    for (const usr of ['sunmaker', 'dealer_south', 'owner_ben'])
      expect((await call(usr, 'moveCollectorOwner', { pn: 'SWSOUTH0000002', uid: anna })).err).toBe(11);

    // ben follows a device of it: the follow goes with the move
    const dev = (
      await s.ctx.db.selectFrom('devices').select('id').where('pn', '=', 'SWSOUTH0000002').executeTakeFirstOrThrow()
    ).id;
    await s.ctx.db
      .insertInto('device_follows')
      .values({ account_id: ben, device_id: dev, created_at: s.clock.now() })
      .execute();
    const moved = await call<CollectorMoveDat>('operator', 'moveCollectorOwner', {
      pn: 'SWSOUTH0000002',
      uid: anna,
      plantid: annaPlant,
    });
    expect(moved).toMatchObject({ err: 0, dat: { uid: anna, usr: 'owner_anna', pid: annaPlant } });
    const dealerNorth = await idOf(s, 'dealer_north');
    expect(await datalogger(s, 'SWSOUTH0000002')).toMatchObject({
      owner_id: anna,
      project_id: annaPlant,
      admin_id: dealerNorth,
    });
    const devs = await s.ctx.db.selectFrom('devices').select('project_id').where('pn', '=', 'SWSOUTH0000002').execute();
    expect(devs.every((d) => Number(d.project_id) === annaPlant)).toBe(true);
    expect(
      await s.ctx.db
        .selectFrom('device_follows')
        .selectAll()
        .where('account_id', '=', ben)
        .where('device_id', '=', dev)
        .execute(),
    ).toEqual([]);
    expect((await call('owner_anna', 'queryCollectorDetail', { pn: 'SWSOUTH0000002' })).err).toBe(0);
    expect((await call('owner_ben', 'queryCollectorDetail', { pn: 'SWSOUTH0000002' })).err).toBe(257);
    expect((await call('operator', 'moveCollectorOwner', { pn: 'SWSOUTH0000002', uid: anna })).err).toBe(271);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', 'SWSOUTH0000002')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'moveCollectorOwner', usr: 'operator' });
    expect(JSON.parse(audit.after!)).toEqual({ owner_id: anna, project_id: annaPlant, admin_id: dealerNorth });

    // a bound datalogger whose owner is under sunmaker cannot change manufacturer
    expect((await call('operator', 'moveCollectorVendor', { pn: 'SWSOUTH0000002', vendorUid: otherMaker })).err).toBe(
      276,
    );

    // the datalogger moved to othermaker goes to othermaker's owner, who has no plant yet: one is made
    expect(await s.ctx.db.selectFrom('projects').select('id').where('owner_id', '=', omOwner).execute()).toEqual([]);
    const toOm = await call<CollectorMoveDat>('operator', 'moveCollectorOwner', { pn: 'SWNORTH0000101', uid: omOwner });
    expect(toOm.err).toBe(0);
    const omPlant = await s.ctx.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', omOwner)
      .executeTakeFirstOrThrow();
    expect(await datalogger(s, 'SWNORTH0000101')).toMatchObject({
      owner_id: omOwner,
      project_id: Number(omPlant.id),
      admin_id: omDealer,
    });
    // bound to othermaker's owner now, it cannot go back to sunmaker (276)
    const maker = await idOf(s, 'sunmaker');
    expect((await call('operator', 'moveCollectorVendor', { pn: 'SWNORTH0000101', vendorUid: maker })).err).toBe(276);
  });
});
