import { ROLE, type AuthDat, type ManufacturerCodeRow } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { datalogger, idOf, makeAccount, prepare } from '../distribution/helpers.js';

/**
 * Issue 14, factoryCode: a PN rule (manufacturer code + type code) gives new PNs with its prefix
 * to its manufacturer at registration: another manufacturer's tree gets 273, the rule's own tree
 * registers them under it; a disabled rule maps nothing. Operator only, validated, audited.
 */
describe.each(engines)('PN rules ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  let otherMaker = 0;
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);

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

  it('operator only; codes are validated; the manufacturer must exist', async () => {
    expect((await call('sunmaker', 'queryManufacturerCodes')).err).toBe(11);
    expect(
      (await call('sunmaker', 'addManufacturerCode', { vendorUid: otherMaker, code: 'QX', typeCode: 'A' })).err,
    ).toBe(11);
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'Q', typeCode: 'A' })).err,
    ).toBe(6);
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'QXYZ', typeCode: 'A' })).err,
    ).toBe(6);
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'QX', typeCode: '1' })).err,
    ).toBe(6);
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'QX', typeCode: 'AB' })).err,
    ).toBe(6);
    const dealer = await idOf(s, 'dealer_north');
    expect((await call('operator', 'addManufacturerCode', { vendorUid: dealer, code: 'QX', typeCode: 'A' })).err).toBe(
      261,
    );
  });

  it('a new manufacturer code makes its PNs register under that manufacturer', async () => {
    // without a rule, a QXA… PN added by sunmaker's distributor is sunmaker's
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QXA00000000001' })).err).toBe(0);
    expect((await datalogger(s, 'QXA00000000001'))?.vendor_id).toBe(await idOf(s, 'sunmaker'));

    const added = await call<{ id: number; prefix: string }>('operator', 'addManufacturerCode', {
      vendorUid: otherMaker,
      code: 'qx',
      typeCode: 'a',
    });
    expect(added).toMatchObject({ err: 0, dat: { prefix: 'QXA' } });
    // the next registration follows the rule at once
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QXA00000000002' })).err).toBe(273);
    expect((await call('sunmaker', 'distAddCollector', { Dpn: 'QXA00000000002' })).err).toBe(273);
    expect(await datalogger(s, 'QXA00000000002')).toBeUndefined();
    expect((await call('om_dealer', 'distAddCollector', { Dpn: 'QXA00000000002' })).err).toBe(0);
    expect(await datalogger(s, 'QXA00000000002')).toMatchObject({
      vendor_id: otherMaker,
      admin_id: await idOf(s, 'om_dealer'),
    });
    // other prefixes are untouched; a PN registered before the rule keeps its manufacturer
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QXB00000000001' })).err).toBe(0);
    expect((await datalogger(s, 'QXA00000000001'))?.vendor_id).toBe(await idOf(s, 'sunmaker'));

    // a prefix exists once; a code belongs to one manufacturer
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'QX', typeCode: 'A' })).err,
    ).toBe(14);
    const maker = await idOf(s, 'sunmaker');
    expect((await call('operator', 'addManufacturerCode', { vendorUid: maker, code: 'QX', typeCode: 'C' })).err).toBe(
      14,
    );
    expect(
      (await call('operator', 'addManufacturerCode', { vendorUid: otherMaker, code: 'QX', typeCode: 'C' })).err,
    ).toBe(0);

    const list = await call<{ total: number; codes: ManufacturerCodeRow[] }>('operator', 'queryManufacturerCodes', {
      search: 'qx',
    });
    expect(list.dat!.total).toBe(2);
    expect(list.dat!.codes.map((c) => [c.prefix, c.vendorUsr, c.enabled])).toEqual([
      ['QXA', 'othermaker', true],
      ['QXC', 'othermaker', true],
    ]);

    // a disabled rule maps nothing
    const id = added.dat!.id;
    expect((await call('operator', 'setManufacturerCodeEnabled', { id, enabled: 0 })).err).toBe(0);
    expect((await call('dealer_north', 'distAddCollector', { Dpn: 'QXA00000000003' })).err).toBe(0);
    expect((await datalogger(s, 'QXA00000000003'))?.vendor_id).toBe(maker);
    expect((await call('operator', 'setManufacturerCodeEnabled', { id: 999999, enabled: 1 })).err).toBe(12);

    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'manufacturer_code')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'addManufacturerCode',
      'addManufacturerCode',
      'setManufacturerCodeEnabled',
    ]);
    expect(audit.every((a) => a.usr === 'operator')).toBe(true);
    expect(JSON.parse(audit[2]!.after!)).toEqual({ prefix: 'QXA', enabled: false });
  });
});
