import {
  DEVICE_DEFINITIONS,
  DEVICE_STATUS,
  ROLE,
  encodeSubAccountPassword,
  signCall,
  type AuthDat,
  type CollectorSheetDat,
  type Envelope,
  type ManufacturerEcoinRow,
  type ManufacturerRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { datalogger, idOf, makeAccount, prepare } from '../distribution/helpers.js';
import { buildXlsx } from '../distribution/sheets.js';

let saltSeq = 0;
/** A signed multipart upload to addCollectorsBySheet (the administrators' batch registration). */
async function uploadSheet(s: TestServer, session: AuthDat, pns: string[]): Promise<Envelope<CollectorSheetDat>> {
  saltSeq += 1;
  const salt = String(s.clock.now() + 3_000_000 + saltSeq);
  const tail = '&action=addCollectorsBySheet&i18n=en_US';
  const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  const fd = new FormData();
  fd.set('file', new Blob([Buffer.from(buildXlsx(pns.map((pn) => [pn, ''])))]), 'add.xlsx');
  return (await s.request<Envelope<CollectorSheetDat>>(q, { method: 'POST', body: fd })).body;
}

const CONTROLLABLE = DEVICE_DEFINITIONS.filter((d) => d.controls.length > 0).map((d) => d.devcode);

/**
 * Issue 14, factoryAccount: manufacturers are role-1 accounts created through the account
 * service; code unique (14), disable stops sign-in at once, ecoin never negative and audited,
 * visible devcodes restrict the area's protocol pickers and flag dataloggers reporting others;
 * PN rule edits and deletes apply at the next registration. Operator only.
 */
describe.each(engines)('manufacturers ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  let otherMaker = 0;
  let newMaker = 0;
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);
  const list = async (search: string) =>
    (await call<{ total: number; manufacturers: ManufacturerRow[] }>('operator', 'queryManufacturers', { search }))
      .dat!;
  const pwd = (p: string) => encodeSubAccountPassword(sessions.get('operator')!.secret, p);
  const auditOf = (entity: string) =>
    s.ctx.db.selectFrom('audit_log').selectAll().where('entity', '=', entity).orderBy('id').execute();

  beforeAll(async () => {
    s = await startTestServer(engine);
    sessions = await prepare(s);
    otherMaker = await makeAccount(s, 'othermaker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'OM' });
    await makeAccount(s, 'om_dealer', ROLE.DISTRIBUTOR, 'othermaker');
    const r = await s.login('om_dealer', 'Secret_2026');
    expect(r.err).toBe(0);
    sessions.set('om_dealer', r.dat!);
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('operator only', async () => {
    for (const usr of ['sunmaker', 'dealer_north', 'owner_anna']) {
      expect((await call(usr, 'queryManufacturers')).err).toBe(11);
      expect((await call(usr, 'adjustManufacturerEcoin', { uid: otherMaker, delta: 5, reason: 'gift' })).err).toBe(11);
      expect((await call(usr, 'setManufacturerEnabled', { uid: otherMaker, enabled: 0 })).err).toBe(11);
      expect((await call(usr, 'editManufacturer', { uid: otherMaker, name: 'Mine' })).err).toBe(11);
      expect(
        (await call(usr, 'addManufacturer', { usr: 'x_maker', ...pwd('Maker_2027x'), name: 'X', code: 'XQ' })).err,
      ).toBe(11);
    }
    expect((await call('sunmaker', 'deleteManufacturerCode', { id: 1 })).err).toBe(11);
    expect((await call('sunmaker', 'editManufacturerCode', { id: 1, enabled: 0 })).err).toBe(11);
  });

  it('creates a manufacturer through the account service; code format and uniqueness', async () => {
    const base = { usr: 'new_maker', ...pwd('Maker_2027x'), name: 'New Maker Ltd', devcodes: '' };
    expect((await call('operator', 'addManufacturer', { ...base, code: 'N' })).err).toBe(6);
    expect((await call('operator', 'addManufacturer', { ...base, code: 'NMXY' })).err).toBe(6);
    expect((await call('operator', 'addManufacturer', { ...base, code: 'N-' })).err).toBe(6);
    expect((await call('operator', 'addManufacturer', { ...base, code: 'sw' })).err).toBe(14); // sunmaker's
    expect((await call('operator', 'addManufacturer', { ...base, code: 'NM', devcodes: '9999' })).err).toBe(353);
    expect((await call('operator', 'addManufacturer', { ...base, usr: 'sunmaker', code: 'NM' })).err).toBe(24);
    // a code held by another manufacturer's PN rule is taken too
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'RQ', typeCode: 'A' })).err,
    ).toBe(0);
    expect((await call('operator', 'addManufacturer', { ...base, code: 'RQ' })).err).toBe(14);
    expect(await s.ctx.repos.accounts.findByUsr('new_maker')).toBeUndefined();

    const added = await call<{ uid: number }>('operator', 'addManufacturer', { ...base, code: 'nm' });
    expect(added.err).toBe(0);
    newMaker = added.dat!.uid;
    const acc = (await s.ctx.repos.accounts.findByUsr('new_maker'))!;
    expect(acc).toMatchObject({ role: ROLE.MANUFACTURER, vendor_code: 'NM', parent_id: await idOf(s, 'operator') });
    const login = await s.login('new_maker', 'Maker_2027x');
    expect(login.err).toBe(0);
    sessions.set('new_maker', login.dat!);
    const row = (await list('new')).manufacturers.find((m) => m.uid === newMaker);
    expect(row).toMatchObject({
      usr: 'new_maker',
      name: 'New Maker Ltd',
      code: 'NM',
      enabled: true,
      ecoin: 0,
      devcodes: [],
    });
    // and a PN rule may not take another manufacturer's own code
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'NM', typeCode: 'A' })).err,
    ).toBe(14);
    // search by code and by name
    expect((await list('nm')).manufacturers.map((m) => m.usr)).toContain('new_maker');
    expect((await list('om')).manufacturers.map((m) => m.usr)).toEqual(['othermaker']);
    expect((await list('maker ltd')).manufacturers.map((m) => m.usr)).toEqual(['new_maker']);
    expect((await list('')).total).toBe(3);

    // edit: name, code (unique), devcodes
    expect((await call('operator', 'editManufacturer', { uid: newMaker, code: 'OM' })).err).toBe(14);
    expect((await call('operator', 'editManufacturer', { uid: newMaker, code: 'RQ' })).err).toBe(14);
    expect(
      (await call('operator', 'editManufacturer', { uid: await idOf(s, 'dealer_north'), name: 'x' + 'y' })).err,
    ).toBe(261);
    expect((await call('operator', 'editManufacturer', { uid: newMaker, name: 'Renamed Co', code: 'nmx' })).err).toBe(
      0,
    );
    expect((await s.ctx.repos.accounts.findById(newMaker))!.vendor_code).toBe('NMX');
    // a sunmaker order is open under SW: its code cannot change under it
    expect((await call('operator', 'editManufacturer', { uid: await idOf(s, 'sunmaker'), code: 'SWX' })).err).toBe(14);

    const audit = await auditOf('manufacturer');
    expect(audit.map((a) => a.action)).toEqual(['addManufacturer', 'editManufacturer']);
    expect(JSON.parse(audit[1]!.before!)).toEqual({ name: 'New Maker Ltd', code: 'NM' });
    expect(JSON.parse(audit[1]!.after!)).toEqual({ name: 'Renamed Co', code: 'NMX' });
    expect(
      (await auditOf('account')).some((a) => a.action === 'addManufacturer' && a.entity_id === String(newMaker)),
    ).toBe(true);
  });

  it('disabling stops sign-in and the live sessions at once; subordinates keep theirs', async () => {
    const dealer = await makeAccount(s, 'nm_dealer', ROLE.DISTRIBUTOR, 'new_maker');
    expect(dealer).toBeGreaterThan(0);
    const dealerLogin = await s.login('nm_dealer', 'Secret_2026');
    expect(dealerLogin.err).toBe(0);
    expect((await call('new_maker', 'queryVisibleDevcodes')).err).toBe(0);

    expect((await call('operator', 'setManufacturerEnabled', { uid: newMaker, enabled: 0 })).err).toBe(0);
    expect((await call('new_maker', 'queryVisibleDevcodes')).err).toBe(10);
    expect((await s.login('new_maker', 'Maker_2027x')).err).toBe(25);
    expect((await s.call(dealerLogin.dat!, 'queryVisibleDevcodes')).err).toBe(0);
    expect((await list('nmx')).manufacturers[0]).toMatchObject({ enabled: false });
    expect(
      (
        await call<{ manufacturers: ManufacturerRow[] }>('operator', 'queryManufacturers', { enabled: 0 })
      ).dat!.manufacturers.map((m) => m.usr),
    ).toEqual(['new_maker']);
    expect(
      (await call('operator', 'setManufacturerEnabled', { uid: await idOf(s, 'dealer_north'), enabled: 0 })).err,
    ).toBe(261);

    expect((await call('operator', 'setManufacturerEnabled', { uid: newMaker, enabled: 1 })).err).toBe(0);
    const again = await s.login('new_maker', 'Maker_2027x');
    expect(again.err).toBe(0);
    sessions.set('new_maker', again.dat!);
    const audit = (await auditOf('account')).filter((a) => a.action === 'setManufacturerEnabled');
    expect(audit.map((a) => JSON.parse(a.after!))).toEqual([{ status: 1 }, { status: 0 }]);
  });

  it('ecoin: integer adjustments with a reason, never below 0, logged and audited', async () => {
    const adjust = (delta: number, reason = 'recharge 2026-11') =>
      call<{ ecoin: number }>('operator', 'adjustManufacturerEcoin', { uid: otherMaker, delta, reason });
    expect((await adjust(0)).err).toBe(6);
    expect((await adjust(1.5)).err).toBe(6);
    expect((await adjust(10, 'x')).err).toBe(6);
    expect((await adjust(100)).dat).toEqual({ ecoin: 100 });
    expect((await adjust(-150, 'too much')).err).toBe(13);
    expect((await adjust(-40, 'refund')).dat).toEqual({ ecoin: 60 });
    expect((await adjust(-60, 'used up')).dat).toEqual({ ecoin: 0 });
    expect((await adjust(-1, 'below zero')).err).toBe(13);
    expect((await list('othermaker')).manufacturers[0]!.ecoin).toBe(0);
    const log = await call<{ total: number; rows: ManufacturerEcoinRow[] }>('operator', 'queryManufacturerEcoinLog', {
      uid: otherMaker,
    });
    expect(log.dat!.total).toBe(3);
    expect(log.dat!.rows.map((r) => [r.delta, r.balance, r.reason, r.usr])).toEqual([
      [-60, 0, 'used up', 'operator'],
      [-40, 60, 'refund', 'operator'],
      [100, 100, 'recharge 2026-11', 'operator'],
    ]);
    const audit = (await auditOf('manufacturer')).filter((a) => a.action === 'adjustManufacturerEcoin');
    expect(audit.map((a) => [JSON.parse(a.before!), JSON.parse(a.after!)])).toEqual([
      [{ ecoin: 0 }, { ecoin: 100, delta: 100, reason: 'recharge 2026-11' }],
      [{ ecoin: 100 }, { ecoin: 60, delta: -40, reason: 'refund' }],
      [{ ecoin: 60 }, { ecoin: 0, delta: -60, reason: 'used up' }],
    ]);
  });

  it("visible devcodes restrict the area's protocol pickers and flag dataloggers reporting others", async () => {
    const [a, b] = CONTROLLABLE as [number, number];
    expect(b).toBeDefined();
    const maker = await idOf(s, 'sunmaker');
    expect((await call('sunmaker', 'queryVisibleDevcodes')).dat).toEqual({ all: true, devcodes: [] });
    expect((await call('sunmaker', 'queryDeviceCtrlFieldForDist', { devcode: b })).err).toBe(0);

    expect((await call('operator', 'editManufacturer', { uid: maker, devcodes: `${a}` })).err).toBe(0);
    for (const usr of ['sunmaker', 'dealer_north', 'north_ops', 'owner_anna']) {
      expect((await call(usr, 'queryVisibleDevcodes')).dat).toEqual({ all: false, devcodes: [a] });
    }
    expect((await call('operator', 'queryVisibleDevcodes')).dat).toEqual({ all: true, devcodes: [] });
    expect((await call('om_dealer', 'queryVisibleDevcodes')).dat).toEqual({ all: true, devcodes: [] });
    for (const usr of ['sunmaker', 'dealer_north']) {
      expect((await call(usr, 'queryDeviceCtrlFieldForDist', { devcode: b })).err).toBe(353);
      expect((await call(usr, 'editDeviceCtrlFieldForDist', { devcode: b, id: 'x', visable: 0 })).err).toBe(353);
      expect((await call(usr, 'queryDeviceCtrlFieldForDist', { devcode: a })).err).toBe(0);
    }
    expect((await call('om_dealer', 'queryDeviceCtrlFieldForDist', { devcode: b })).err).toBe(0);

    // the flag: a sunmaker datalogger reporting a device of devcode b
    const baseline = (await list('sunmaker')).manufacturers[0]!.outsideDataloggers;
    expect((await call('sunmaker', 'distAddCollector', { Dpn: 'SWMFGFLAG00001' })).err).toBe(0);
    const dl = await s.ctx.db
      .selectFrom('dataloggers')
      .select(['id', 'pn'])
      .where('pn', '=', 'SWMFGFLAG00001')
      .executeTakeFirstOrThrow();
    const device = (devcode: number, sn: string) =>
      s.ctx.db
        .insertInto('devices')
        .values({
          datalogger_id: Number(dl.id),
          pn: dl.pn,
          devcode,
          devaddr: 1,
          sn,
          alias: sn,
          devtype: 512,
          device_type: 2,
          model: '',
          brand: '',
          status: DEVICE_STATUS.NORMAL,
          firmware: '',
          load: 0,
          project_id: null,
          last_sample_at: null,
          created_at: s.ctx.now(),
        })
        .execute();
    await device(a, 'MFG-SN-A');
    expect((await list('sunmaker')).manufacturers[0]).toMatchObject({ devcodes: [a], outsideDataloggers: baseline });
    await device(b, 'MFG-SN-B');
    const row = (await list('sunmaker')).manufacturers[0]!;
    expect(row.outsideDataloggers).toBe(baseline + 1);
    expect(row.dataloggers).toBeGreaterThan(0);
    // back to all: nothing is outside
    expect((await call('operator', 'editManufacturer', { uid: maker, devcodes: '' })).err).toBe(0);
    expect((await list('sunmaker')).manufacturers[0]).toMatchObject({ devcodes: [], outsideDataloggers: 0 });
    expect((await call('dealer_north', 'queryDeviceCtrlFieldForDist', { devcode: b })).err).toBe(0);
  });

  it('PN rule edits and deletes apply at the next registration (distAddCollector and addCollectorsBySheet)', async () => {
    const maker = await idOf(s, 'sunmaker');
    const added = await call<{ id: number }>('operator', 'addManufacturerCode', {
      vendorUid: otherMaker,
      code: 'QZ',
      typeCode: 'A',
    });
    expect(added.err).toBe(0);
    const id = added.dat!.id;
    expect((await call('om_dealer', 'distAddCollector', { Dpn: 'QZA00000000001' })).err).toBe(0);
    expect((await datalogger(s, 'QZA00000000001'))?.vendor_id).toBe(otherMaker);
    const sheet = await uploadSheet(s, sessions.get('sunmaker')!, ['QZA00000000002']);
    expect(sheet.dat!.result[0]!.err).toBe(273);

    // owner manufacturer → new_maker: the next registrations follow it at once
    expect((await call('operator', 'editManufacturerCode', { id, vendorUid: await idOf(s, 'dealer_north') })).err).toBe(
      261,
    );
    expect((await call('operator', 'editManufacturerCode', { id, vendorUid: newMaker })).err).toBe(0);
    expect((await call('om_dealer', 'distAddCollector', { Dpn: 'QZA00000000003' })).err).toBe(273);
    const own = await uploadSheet(s, sessions.get('new_maker')!, ['QZA00000000003']);
    expect(own.err).toBe(0);
    expect(own.dat!.result[0]!.err).toBe(0);
    expect((await datalogger(s, 'QZA00000000003'))?.vendor_id).toBe(newMaker);
    // registered before the edit: keeps its manufacturer
    expect((await datalogger(s, 'QZA00000000001'))?.vendor_id).toBe(otherMaker);

    // a code names one manufacturer: a rule cannot move alone while another rule of its code stays
    const second = await call<{ id: number }>('operator', 'addManufacturerCode', {
      vendorUid: newMaker,
      code: 'QZ',
      typeCode: 'C',
    });
    expect(second.err).toBe(0);
    expect((await call('operator', 'editManufacturerCode', { id, vendorUid: otherMaker })).err).toBe(14);
    // the prefix exists once
    expect((await call('operator', 'editManufacturerCode', { id, typeCode: 'c' })).err).toBe(14);

    // type code A → B: QZA… is free again, QZB… is new_maker's
    expect((await call('operator', 'editManufacturerCode', { id, typeCode: 'b' })).err).toBe(0);
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QZA00000000004' })).err).toBe(0);
    expect((await datalogger(s, 'QZA00000000004'))?.vendor_id).toBe(maker);
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QZB00000000001' })).err).toBe(273);
    // disabled by edit: maps nothing
    expect((await call('operator', 'editManufacturerCode', { id, enabled: 0 })).err).toBe(0);
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QZB00000000002' })).err).toBe(0);
    expect((await call('operator', 'editManufacturerCode', { id, enabled: 1 })).err).toBe(0);
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QZB00000000003' })).err).toBe(273);

    // deleted: gone from the list, maps nothing
    expect((await call('operator', 'deleteManufacturerCode', { id })).err).toBe(0);
    expect((await call('operator', 'deleteManufacturerCode', { id })).err).toBe(12);
    expect((await call('operator', 'editManufacturerCode', { id, enabled: 1 })).err).toBe(12);
    const sheet2 = await uploadSheet(s, sessions.get('sunmaker')!, ['QZB00000000003']);
    expect(sheet2.dat!.result[0]!.err).toBe(0);
    expect((await datalogger(s, 'QZB00000000003'))?.vendor_id).toBe(maker);
    const rows = await call<{ codes: Array<{ prefix: string }> }>('operator', 'queryManufacturerCodes', {
      search: 'qz',
    });
    expect(rows.dat!.codes.map((c) => c.prefix)).toEqual(['QZC']);

    const audit = (await auditOf('manufacturer_code')).filter((a) => a.entity_id === String(id));
    expect(audit.map((a) => a.action)).toEqual([
      'addManufacturerCode',
      'editManufacturerCode',
      'editManufacturerCode',
      'editManufacturerCode',
      'editManufacturerCode',
      'deleteManufacturerCode',
    ]);
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ vendor_id: newMaker, vendor: 'new_maker' });
    expect(JSON.parse(audit[2]!.before!)).toEqual({ prefix: 'QZA', type_code: 'A' });
    expect(JSON.parse(audit[2]!.after!)).toEqual({ prefix: 'QZB', type_code: 'B' });
    expect(audit[5]!.after).toBeNull();
    expect(JSON.parse(audit[5]!.before!)).toMatchObject({ prefix: 'QZB', vendor_id: newMaker, enabled: true });
  });
});
