import {
  ROLE,
  signCall,
  type AuthDat,
  type CollectorDetail,
  type CollectorSheetDat,
  type Envelope,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectOfflineDataloggers } from '../../src/jobs/detect-offline-dataloggers.job.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { datalogger, idOf, makeAccount, prepare, repo } from '../distribution/helpers.js';
import { buildXls, buildXlsx } from '../distribution/sheets.js';

let saltSeq = 0;
/** A signed multipart upload to addCollectorsBySheet. */
async function uploadSheet(
  s: TestServer,
  session: { token: string; secret: string },
  params: Record<string, string | number>,
  bytes: Uint8Array,
  filename: string,
): Promise<Envelope<CollectorSheetDat>> {
  saltSeq += 1;
  const salt = String(s.clock.now() + 2_000_000 + saltSeq);
  const tail = `&action=addCollectorsBySheet${Object.entries(params)
    .map(([k, v]) => `&${k}=${v}`)
    .join('')}&i18n=en_US`;
  const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  const fd = new FormData();
  fd.set('file', new Blob([Buffer.from(bytes)]), filename);
  return (await s.request<Envelope<CollectorSheetDat>>(q, { method: 'POST', body: fd })).body;
}

/**
 * Datalogger management without commands (no MQTT round trip): add single and from a sheet with
 * every per-row code, delete (management right), edit rules, the log's date rules, the GPRS list
 * and the details, on SQLite and PostgreSQL.
 */
describe.each(engines)('datalogger management ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);
  let annaPlant = 0;
  let benPlant = 0;

  beforeAll(async () => {
    s = await startTestServer(engine);
    sessions = await prepare(s);
    const plantOf = async (usr: string) =>
      Number(
        (
          await s.ctx.db
            .selectFrom('projects')
            .select('id')
            .where('owner_id', '=', await idOf(s, usr))
            .orderBy('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    annaPlant = await plantOf('owner_anna');
    benPlant = await plantOf('owner_ben');
    const otherMaker = await makeAccount(s, 'othermaker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'OM' });
    await repo(s).insertStock('OMAKER00000001', '', null, otherMaker, 'OM');
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('addCollectorToPlant: the owner binds a stock datalogger to its plant; 259, 522, 772, 273, 260, 11', async () => {
    const anna = await idOf(s, 'owner_anna');
    const north = await idOf(s, 'dealer_north');
    expect((await call('owner_anna', 'addCollectorToPlant', { plantid: annaPlant, pn: 'bad', alias: 'x' })).err).toBe(
      259,
    );
    // A well-formed PN no manufacturer ever made.
    expect((await call('owner_anna', 'addCollectorToPlant', { plantid: annaPlant, pn: 'SWZZZZZ0000009' })).err).toBe(
      259,
    );
    expect((await call('owner_anna', 'addCollectorToPlant', { plantid: benPlant, pn: 'SWNORTH0000101' })).err).toBe(
      260,
    );
    expect((await call('owner_anna', 'addCollectorToPlant', { plantid: annaPlant, pn: 'OMAKER00000001' })).err).toBe(
      273,
    );
    const ok = await call('owner_anna', 'addCollectorToPlant', {
      plantid: annaPlant,
      pn: 'SWNORTH0000101',
      alias: 'Garage',
    });
    expect(ok.err).toBe(0);
    expect(await datalogger(s, 'SWNORTH0000101')).toMatchObject({
      owner_id: anna,
      project_id: annaPlant,
      admin_id: north,
      alias: 'Garage',
    });
    const op = await s.ctx.db.selectFrom('operation_log').selectAll().where('pn', '=', 'SWNORTH0000101').execute();
    expect(op).toMatchObject([{ action: 'addCollectorToPlant', kind: 'bind', result: 0, usr: 'owner_anna' }]);
    expect((await call('owner_anna', 'addCollectorToPlant', { plantid: annaPlant, pn: 'SWNORTH0000101' })).err).toBe(
      522,
    );
    expect((await call('owner_ben', 'addCollectorToPlant', { plantid: benPlant, pn: 'SWNORTH0000101' })).err).toBe(772);
    // Only owners, and only with the add-datalogger permission.
    expect((await call('dealer_north', 'addCollectorToPlant', { plantid: annaPlant, pn: 'SWNORTH0000102' })).err).toBe(
      11,
    );
    expect((await call('viewer_cara', 'addCollectorToPlant', { plantid: annaPlant, pn: 'SWNORTH0000102' })).err).toBe(
      11,
    );
    await s.ctx.db.updateTable('accounts').set({ can_add_datalogger: 0 }).where('id', '=', anna).execute();
    expect((await call('owner_anna', 'addCollectorToPlant', { plantid: annaPlant, pn: 'SWNORTH0000102' })).err).toBe(
      11,
    );
    await s.ctx.db.updateTable('accounts').set({ can_add_datalogger: 1 }).where('id', '=', anna).execute();
  });

  it('addCollectorsBySheet (owner): a result per row — added, 520 duplicate, 772 bound, 259 invalid, 522 exists; xlsx only', async () => {
    const ben = await idOf(s, 'owner_ben');
    const bytes = buildXlsx([
      ['SWNORTH0000103', 'Barn'],
      ['SWNORTH0000103', 'again'],
      ['SWNORTH0000101', ''],
      ['abc', ''],
      ['SWSOUTH0000001', ''],
    ]);
    const res = await uploadSheet(s, sessions.get('owner_ben')!, { plantid: benPlant }, bytes, 'add.xlsx');
    expect(res.err).toBe(0);
    expect(res.dat!.result.map((r) => [r.row, r.pn, r.err])).toEqual([
      [1, 'SWNORTH0000103', 0],
      [2, 'SWNORTH0000103', 520],
      [3, 'SWNORTH0000101', 772],
      [4, 'abc', 259],
      [5, 'SWSOUTH0000001', 522],
    ]);
    expect(res.dat).toMatchObject({ total: 5, ok: 1, failed: 4 });
    expect(res.dat!.result[1]!.msg).toBe('Duplicate PN');
    expect(await datalogger(s, 'SWNORTH0000103')).toMatchObject({ owner_id: ben, project_id: benPlant, alias: 'Barn' });
    // xls is refused (spec §5: xlsx only); an owner must name its plant.
    const xls = await uploadSheet(
      s,
      sessions.get('owner_ben')!,
      { plantid: benPlant },
      buildXls([['SWNORTH0000102', '']]),
      'add.xls',
    );
    expect(xls.err).toBe(6);
    expect(
      (await uploadSheet(s, sessions.get('owner_ben')!, {}, buildXlsx([['SWNORTH0000102', '']]), 'add.xlsx')).err,
    ).toBe(7);
  });

  it('addCollectorsBySheet (distributor): new PNs join its stock; bound 772, another manufacturer 273, duplicate 520', async () => {
    const north = await idOf(s, 'dealer_north');
    const maker = await idOf(s, 'sunmaker');
    const bytes = buildXlsx([
      ['SWNEWDL0000001', 'new one'],
      ['SWSOUTH0000001', ''],
      ['SWNEWDL0000001', ''],
      ['OMAKER00000001', ''],
    ]);
    const res = await uploadSheet(s, sessions.get('dealer_north')!, {}, bytes, 'stock.xlsx');
    expect(res.dat!.result.map((r) => r.err)).toEqual([0, 772, 520, 273]);
    expect(await datalogger(s, 'SWNEWDL0000001')).toMatchObject({
      owner_id: null,
      admin_id: north,
      vendor_id: maker,
      alias: 'new one',
    });
  });

  it("delCollector removes the caller's management right only: owner → ownership, distributor → administration", async () => {
    const north = await idOf(s, 'dealer_north');
    const before = await datalogger(s, 'SWNORTH0000101');
    expect(before?.owner_id).not.toBeNull();
    expect((await call('owner_anna', 'delCollector', { pn: 'SWNORTH0000101' })).err).toBe(0);
    expect(await datalogger(s, 'SWNORTH0000101')).toMatchObject({ owner_id: null, project_id: null, admin_id: north });
    // Stock of dealer_north: it gives up administering it.
    expect((await call('dealer_north', 'delCollector', { pn: 'SWNORTH0000104' })).err).toBe(0);
    expect(await datalogger(s, 'SWNORTH0000104')).toMatchObject({ admin_id: null, owner_id: null });
    // Not its datalogger: not found; a manufacturer holds no management right to give up.
    expect((await call('dealer_south', 'delCollector', { pn: 'SWNORTH0000105' })).err).toBe(257);
    expect((await call('sunmaker', 'delCollector', { pn: 'SWNORTH0000105' })).err).toBe(11);
    const ops = await s.ctx.db
      .selectFrom('operation_log')
      .select(['pn', 'kind', 'result'])
      .where('action', '=', 'delCollector')
      .execute();
    expect(ops).toEqual(
      expect.arrayContaining([
        { pn: 'SWNORTH0000101', kind: 'delete', result: 0 },
        { pn: 'SWNORTH0000104', kind: 'delete', result: 0 },
      ]),
    );
  });

  it('editCollectorEs: location, plant data and configuration; ranges and formats refused with 6; viewers 11', async () => {
    const pn = 'SWNORTH0000001';
    const ok = await call('dealer_north', 'editCollectorEs', {
      pn,
      alias: 'Roof logger',
      'address.country': 'Germany',
      'address.town': 'Altona',
      lon: 9.93,
      lat: 53.55,
      installer: 'Nordsolar GmbH',
      installDate: '2025-04-01',
      nominalPower: 7.2,
      'profit.currency': 'EUR',
      'profit.buyProfit': 0.32,
      'profit.sellProfit': 0.08,
      'profit.useProfit': 0.3,
      'profit.genProfit': 0.1,
      storageDays: 90,
      minAddr: 1,
      maxAddr: 16,
      transparent: 1,
    });
    expect(ok.err).toBe(0);
    const row = (await datalogger(s, pn))!;
    expect(row).toMatchObject({
      alias: 'Roof logger',
      country: 'Germany',
      district: 'Altona',
      installer: 'Nordsolar GmbH',
      currency: 'EUR',
      storage_days: 90,
      max_addr: 16,
      transparent: 1,
    });
    expect(Number(row.price_buy)).toBeCloseTo(0.32);
    expect(Number(row.nominal_power)).toBeCloseTo(7.2);
    const detail = (await call<CollectorDetail>('dealer_north', 'queryCollectorDetail', { pn })).dat!;
    expect(detail).toMatchObject({
      pn,
      alias: 'Roof logger',
      installDate: '2025-04-01',
      installer: 'Nordsolar GmbH',
      profit: { currency: 'EUR', buyProfit: 0.32, sellProfit: 0.08, useProfit: 0.3, genProfit: 0.1 },
      address: { country: 'Germany', town: 'Altona', lon: 9.93, lat: 53.55 },
      usr: 'owner_anna',
      adminUsr: 'dealer_north',
      vendorUsr: 'sunmaker',
      connection: { protocol: 'mqtt', dataTopic: `sw/dl/${pn}/data`, cmdTopic: `sw/dl/${pn}/cmd` },
      can: { edit: true, reboot: true, reset: true, unbind: true, debug: true, delete: true },
    });
    // An empty value clears a field.
    expect((await call('dealer_north', 'editCollectorEs', { pn, installer: '' })).err).toBe(0);
    expect((await datalogger(s, pn))!.installer).toBe('');
    const bads: Array<Record<string, string | number>> = [
      { lon: 200 },
      { lat: -91 },
      { timezone: 1234 },
      { 'profit.currency': 'XXX' },
      { 'profit.buyProfit': -1 },
      { installDate: '2026-02-30' },
      { minAddr: 20, maxAddr: 10 },
    ];
    for (const bad of bads) {
      expect((await call('dealer_north', 'editCollectorEs', { pn, ...bad })).err, JSON.stringify(bad)).toBe(6);
    }
    expect((await call('dealer_north', 'editCollectorEs', { pn, alias: 'Roof logger' })).err).toBe(271);
    expect((await call('viewer_cara', 'editCollectorEs', { pn, alias: 'x' })).err).toBe(11);
    expect((await call('dealer_south', 'editCollectorEs', { pn, alias: 'x' })).err).toBe(257);
    const ops = await s.ctx.db
      .selectFrom('operation_log')
      .selectAll()
      .where('action', '=', 'editCollectorEs')
      .where('pn', '=', pn)
      .execute();
    expect(ops.length).toBe(2);
    expect(ops[0]).toMatchObject({ kind: 'edit', result: 0, usr: 'dealer_north' });
    expect(JSON.parse(ops[0]!.after!)).toMatchObject({ alias: 'Roof logger', installer: 'Nordsolar GmbH' });
  });

  it('webQueryCollectorLog: at most 3 days, no future dates, newest first; another tenant 257', async () => {
    const pn = 'SWNORTH0000001';
    const tz = 3600;
    const day = (offset: number) => new Date(Date.now() + tz * 1000 + offset * 86_400_000).toISOString().slice(0, 10);
    await s.ctx.services.dataloggerEvents.record({ pn, kind: 'connect', detail: 'a' });
    await s.ctx.services.dataloggerEvents.record({ pn, kind: 'disconnect', detail: 'b' });
    await s.ctx.services.dataloggerEvents.record({ pn, kind: 'connect', ts: Date.now() - 10 * 86_400_000 });
    const res = await call<{ total: number; log: Array<{ kind: string; detail: string; gts: string }> }>(
      'owner_anna',
      'webQueryCollectorLog',
      { pn, sdate: day(-2), edate: day(0) },
    );
    expect(res.err).toBe(0);
    // the datalogger had never been heard from: its first connection is its registration too
    expect(res.dat!.total).toBe(3);
    expect(res.dat!.log.map((r) => r.kind)).toEqual(['disconnect', 'connect', 'register']);
    expect(res.dat!.log[0]!.gts.slice(0, 10)).toBe(day(0));
    expect((await call('owner_anna', 'webQueryCollectorLog', { pn, sdate: day(-3), edate: day(0) })).err).toBe(6);
    expect((await call('owner_anna', 'webQueryCollectorLog', { pn, sdate: day(0), edate: day(1) })).err).toBe(6);
    expect((await call('owner_anna', 'webQueryCollectorLog', { pn, sdate: day(0), edate: day(-1) })).err).toBe(6);
    const kind = await call<{ total: number }>('owner_anna', 'webQueryCollectorLog', {
      pn,
      sdate: day(0),
      edate: day(0),
      kind: 'disconnect',
    });
    expect(kind.dat!.total).toBe(1);
    expect((await call('owner_ben', 'webQueryCollectorLog', { pn, sdate: day(0), edate: day(0) })).err).toBe(257);
  });

  it('a heartbeat gap (the offline job) lands in the datalogger log', async () => {
    const pn = 'SWSOUTH0000002';
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ status: 0, last_seen_at: s.ctx.now() - 3_600_000, heartbeat_interval: 60 })
      .where('pn', '=', pn)
      .execute();
    await detectOfflineDataloggers(s.ctx);
    const rows = await s.ctx.db.selectFrom('datalogger_events').selectAll().where('pn', '=', pn).execute();
    expect(rows).toMatchObject([{ kind: 'offline', result: 0 }]);
    expect(rows[0]!.detail).toMatch(/no heartbeat for 3600 s \(window 180 s\)/);
  });

  it('queryGprsCollector: GPRS dataloggers of the scope by fuzzy PN and CCID; a PN matching none → 257', async () => {
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ ccid: '89860012345678901234', comm_method: 'GPRS', card_status: 0 })
      .where('pn', '=', 'SWSOUTH0000001')
      .execute();
    const res = await call<{ total: number; collector: Array<{ pn: string; gprs: { ccid: string } }> }>(
      'dealer_south',
      'queryGprsCollector',
      { ccid: '5678' },
    );
    expect(res.err).toBe(0);
    expect(res.dat!.total).toBe(1);
    expect(res.dat!.collector[0]).toMatchObject({ pn: 'SWSOUTH0000001', gprs: { ccid: '89860012345678901234' } });
    // Another dealer's list never holds it.
    const north = await call<{ total: number; collector: Array<{ pn: string; gprs: { ccid: string } }> }>(
      'dealer_north',
      'queryGprsCollector',
      { pagesize: 50 },
    );
    expect(north.dat!.collector.map((c) => c.pn)).not.toContain('SWSOUTH0000001');
    expect((await call<{ total: number }>('dealer_north', 'queryGprsCollector', { ccid: '5678' })).dat!.total).toBe(0);
    expect((await call('owner_anna', 'queryGprsCollector', { pn: 'SWSOUTH' })).err).toBe(257);
  });
});
