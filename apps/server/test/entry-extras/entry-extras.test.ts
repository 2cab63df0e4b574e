import { LOOKUP_LIMIT, QR_KEY_TTL_MS, type AuthDat, type Envelope, type InvCodeLoginDat, type InvCodeRow } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOWCASE_PLANTS, SHOWCASE_USR } from '../../src/demo/showcase.js';
import { FIXED_NOW, encodePairs, engines, freshIp, startTestServer, type TestServer } from '../harness.js';

/** Issue 12 entry extras: account lookup, experience codes and demo sign-in, QR sign-in. */
describe.each(engines)('entry extras ($name)', (engine) => {
  let s: TestServer;
  let operator: AuthDat;
  let anna: AuthDat;
  let ben: AuthDat;
  const pub = async <T = unknown>(action: string, params: Record<string, string | number>, ip = freshIp()) =>
    (await s.request<Envelope<T>>(`/public/?action=${action}${encodePairs({ source: 1, ...params })}`, { ip })).body;
  let keySeq = 0;
  const newKey = () => `K${engine.name.slice(0, 2)}${String(++keySeq).padStart(29, '0')}`;

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    operator = (await s.login('operator', 'Operator_2026')).dat!;
    anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
    ben = (await s.login('owner_ben', 'Owner_2026')).dat!;
    // A serial of the spec's form (capital letter + digits) on Anna's weather station.
    await s.ctx.database.db.updateTable('devices').set({ sn: 'W20261125000103' }).where('sn', '=', 'SW5125N0000103').execute();
    await s.ctx.database.db
      .updateTable('accounts')
      .set({ email: 'anna.owner@example.com', mobile: '13812345678' })
      .where('usr', '=', 'owner_anna')
      .execute();
  });
  afterAll(async () => {
    await s?.stop();
  });

  describe('retrieveUsrByPnEs', () => {
    it('answers the masked account, e-mail and phone of the serial’s owner (device SN)', async () => {
      const res = await pub('retrieveUsrByPnEs', { pn: 'W20261125000103' });
      expect(res).toMatchObject({ err: 0, dat: { usr: 'o***a', email: 'a***@example.com', mobile: '138****5678' } });
      expect(JSON.stringify(res)).not.toContain('owner_anna');
    });
    it('answers 257 for an unknown serial and 6 for one not of the form', async () => {
      expect((await pub('retrieveUsrByPnEs', { pn: 'W99999999999' })).err).toBe(257);
      expect((await pub('retrieveUsrByPnEs', { pn: 'sw123' })).err).toBe(6);
      expect((await pub('retrieveUsrByPnEs', { pn: `W${'1'.repeat(24)}` })).err).toBe(6);
    });
    it('limits lookups per client address (13), other addresses go on', async () => {
      const ip = freshIp();
      for (let i = 0; i < LOOKUP_LIMIT.perWindow; i++) expect((await pub('retrieveUsrByPnEs', { pn: `W${i}1` }, ip)).err).toBe(257);
      expect((await pub('retrieveUsrByPnEs', { pn: 'W20261125000103' }, ip)).err).toBe(13);
      expect((await pub('retrieveUsrByPnEs', { pn: 'W20261125000103' })).err).toBe(0);
      s.clock.advance(LOOKUP_LIMIT.windowMs + 1);
      expect((await pub('retrieveUsrByPnEs', { pn: 'W20261125000103' }, ip)).err).toBe(0);
    });
  });

  describe('experience codes', () => {
    it('only the operator issues and lists codes (11 for others); codes never name a real account (523)', async () => {
      expect((await s.call(anna, 'addInvCode', { days: 1 })).err).toBe(11);
      expect((await s.call(anna, 'queryInvCodes')).err).toBe(11);
      expect((await s.call(operator, 'addInvCode', { usr: 'owner_anna', days: 1 })).err).toBe(523);
      expect((await s.call(operator, 'addInvCode', { usr: 'dealer_north', days: 1 })).err).toBe(523);
      expect((await s.call(operator, 'addInvCode', { usr: 'nobody_here', days: 1 })).err).toBe(523);
    });

    it('a code opens the showcase read-only (created on demand without DEMO_DATA, simulated history up to now); every write answers 11', async () => {
      expect(s.ctx.config.seedDemo).toBe(false);
      const issued = await s.call<InvCodeRow>(operator, 'addInvCode', { days: 2, note: 'fair' });
      expect(issued).toMatchObject({ err: 0, dat: { usr: SHOWCASE_USR, state: 'valid', uses: 0, note: 'fair' } });
      const code = issued.dat!.code;
      expect(code).toMatch(/^[A-Z2-9]{12}$/);
      const login = await pub<InvCodeLoginDat>('validateInvCode', { invCode: code.toLowerCase(), sysType: '1' });
      expect(login).toMatchObject({ err: 0, dat: { usr: SHOWCASE_USR, role: 0, demo: true, validFrom: issued.dat!.validFrom } });
      expect(login.dat!.validTo - login.dat!.validFrom).toBe(2 * 86_400_000);
      const demo = login.dat!;
      // the showcase plants with simulated figures, nothing of a real tenant
      const plants = await s.call<{ total: number; plant: Array<{ pid: number; name: string; energyTotal: string; lts: string }> }>(
        demo,
        'webQueryPlants',
        { pagesize: 50 },
      );
      expect(plants.err).toBe(0);
      expect(plants.dat!.plant.map((p) => p.name).sort()).toEqual(SHOWCASE_PLANTS.map((p) => p.name).sort());
      expect(plants.dat!.plant.some((p) => Number(p.energyTotal) > 0)).toBe(true);
      expect(plants.dat!.plant.every((p) => p.lts !== '')).toBe(true);
      const samples = await s.ctx.database.db
        .selectFrom('devices')
        .select((eb) => eb.fn.max('last_sample_at').as('t'))
        .where('pn', 'like', 'SWSHOW%')
        .executeTakeFirstOrThrow();
      expect(s.clock.now() - Number(samples.t)).toBeLessThan(10 * 60_000);
      const annaPlant = await s.ctx.database.db
        .selectFrom('projects')
        .innerJoin('accounts', 'accounts.id', 'projects.owner_id')
        .select('projects.id')
        .where('accounts.usr', '=', 'owner_anna')
        .executeTakeFirstOrThrow();
      expect((await s.call(demo, 'queryPlantInfo', { plantid: annaPlant.id })).err).not.toBe(0);
      expect((await s.call(anna, 'queryPlantInfo', { plantid: annaPlant.id })).err).toBe(0);
      expect(JSON.stringify((await s.call(demo, 'webQueryPlants', { pagesize: 50 })).dat)).not.toMatch(/Anna|Ben/);
      // isolated: no real tenant sees the showcase plants
      const annaSees = await s.call<{ plant: Array<{ name: string }> }>(anna, 'webQueryPlants', { pagesize: 50 });
      expect(annaSees.dat!.plant.some((p) => p.name.startsWith('Showcase'))).toBe(false);
      const showcase = await s.ctx.database.db.selectFrom('accounts').selectAll().where('usr', '=', SHOWCASE_USR).executeTakeFirstOrThrow();
      expect(showcase.parent_id).toBeNull();
      const dls = await s.ctx.database.db.selectFrom('dataloggers').selectAll().where('owner_id', '=', showcase.id).execute();
      expect(dls.length).toBe(2);
      expect(dls.every((d) => d.admin_id === null && d.vendor_id === null)).toBe(true);
      // a second code reuses the same showcase
      const again = await s.call<InvCodeRow>(operator, 'addInvCode', { usr: SHOWCASE_USR, days: 1 });
      expect(again.dat!.uid).toBe(showcase.id);
      // writes are refused, the same writes work in Anna's own session
      expect((await s.call(demo, 'editAccount', { qname: 'hacked' })).err).toBe(11);
      expect((await s.call(demo, 'updatePassword', { newpwd: 'ab' })).err).toBe(11);
      expect((await s.call(anna, 'editAccount', { qname: 'Anna' })).err).toBe(0);
      // its token refresh keeps the demo flag
      const fresh = await s.call<{ token: string; secret: string }>(demo, 'updateToken');
      expect(fresh.err).toBe(0);
      expect((await s.call(fresh.dat!, 'editAccount', { qname: 'hacked' })).err).toBe(11);
      // the use is counted and listed
      const list = await s.call<{ code: InvCodeRow[] }>(operator, 'queryInvCodes', { pagesize: 50 });
      expect(list.dat!.code.find((c) => c.code === code)).toMatchObject({ uses: 1, state: 'valid' });
      // after the period: 11 (controllable clock)
      s.clock.advance(2 * 86_400_000);
      expect((await pub('validateInvCode', { invCode: code })).err).toBe(11);
      const after = await s.call<{ code: InvCodeRow[] }>(operator, 'queryInvCodes', { pagesize: 50 });
      expect(after.dat!.code.find((c) => c.code === code)!.state).toBe('expired');
    });

    it('11 for an unknown or not yet valid code; the operator expires a code (its demo sessions end), 271 twice, 12 unknown', async () => {
      expect((await pub('validateInvCode', { invCode: 'NOSUCHCODE22' })).err).toBe(11);
      expect((await pub('validateInvCode', { invCode: '' })).err).toBe(6);
      const later = await s.call<InvCodeRow>(operator, 'addInvCode', {
        days: 1,
        validFrom: s.clock.now() + 3_600_000,
      });
      expect(later.dat!.state).toBe('pending');
      expect((await pub('validateInvCode', { invCode: later.dat!.code })).err).toBe(11);
      s.clock.advance(3_600_000);
      const demo = (await pub<InvCodeLoginDat>('validateInvCode', { invCode: later.dat!.code })).dat!;
      expect((await s.call(demo, 'queryAccountInfo')).err).toBe(0);
      expect((await s.call(operator, 'expireInvCode', { id: later.dat!.id })).err).toBe(0);
      expect((await s.call(demo, 'queryAccountInfo')).err).toBe(10);
      expect((await pub('validateInvCode', { invCode: later.dat!.code })).err).toBe(11);
      expect((await s.call(operator, 'expireInvCode', { id: later.dat!.id })).err).toBe(271);
      expect((await s.call(operator, 'expireInvCode', { id: 999_999 })).err).toBe(12);
      const rows = await s.ctx.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'inv_code').execute();
      expect(rows.some((r) => r.action === 'expireInvCode' && r.entity_id === String(later.dat!.id))).toBe(true);
    });

    it('expiring one code ends its own visitors’ sessions (also after a token refresh), not another code’s', async () => {
      const a = (await s.call<InvCodeRow>(operator, 'addInvCode', { days: 1 })).dat!;
      const b = (await s.call<InvCodeRow>(operator, 'addInvCode', { days: 1 })).dat!;
      const viaA = (await pub<InvCodeLoginDat>('validateInvCode', { invCode: a.code })).dat!;
      const refreshed = (await s.call<{ token: string; secret: string }>(viaA, 'updateToken')).dat!;
      const viaB = (await pub<InvCodeLoginDat>('validateInvCode', { invCode: b.code })).dat!;
      expect((await s.call(operator, 'expireInvCode', { id: a.id })).err).toBe(0);
      expect((await s.call(refreshed, 'queryAccountInfo')).err).toBe(10);
      expect((await s.call(viaB, 'queryAccountInfo')).err).toBe(0);
    });

    it('a code issued before the showcase, naming a real account, opens nothing (11)', async () => {
      const annaRow = await s.ctx.database.db.selectFrom('accounts').select('id').where('usr', '=', 'owner_anna').executeTakeFirstOrThrow();
      const now = s.clock.now();
      await s.ctx.database.db
        .insertInto('inv_codes')
        .values({ code: 'OLDREALCODE2', account_id: annaRow.id, valid_from: now - 1000, valid_to: now + 86_400_000, note: '', created_by: null, created_at: now })
        .execute();
      expect((await pub('validateInvCode', { invCode: 'OLDREALCODE2' })).err).toBe(11);
    });

    it('an application is stored with the form’s fields for the operator; rules of spec §5 (6)', async () => {
      const form = {
        applyName: 'Li Wei',
        companyName: 'Sun Co',
        companyAddress: 'Road 1',
        phoneNumber: '13812345678',
        email: 'li.wei@example.com',
        reason: 'Evaluating the platform',
        status: '0',
        sysType: '1',
        createTime: '2026-06-15 12:00:00',
      };
      const ok = await pub<{ id: number }>('addInvCodeApply', form);
      expect(ok.err).toBe(0);
      expect((await pub('addInvCodeApply', { ...form, email: 'no-at' })).err).toBe(6);
      expect((await pub('addInvCodeApply', { ...form, applyName: 'L' })).err).toBe(6);
      expect((await pub('addInvCodeApply', { ...form, status: '1' })).err).toBe(6);
      expect((await s.call(anna, 'queryInvCodeApplies')).err).toBe(11);
      const list = await s.call<{ apply: Array<Record<string, unknown>> }>(operator, 'queryInvCodeApplies', { pagesize: 50 });
      expect(list.dat!.apply.find((a) => a.id === ok.dat!.id)).toMatchObject({ ...form, receivedAt: s.clock.now() });
    });
  });

  describe('QR sign-in', () => {
    it('1033 waiting, 1040 scanned, 0 with a session of the confirming account, then 1041 (single use)', async () => {
      const key = newKey();
      expect((await pub('qrLogin', { key, plat: 'smartlan' })).err).toBe(1033);
      expect((await pub('qrLogin', { key })).err).toBe(1033);
      expect((await s.call(ben, 'qrConfirm', { key, confirm: '1' })).err).toBe(1041); // not scanned yet
      expect((await s.call(ben, 'qrScan', { key })).err).toBe(0);
      expect((await pub('qrLogin', { key })).err).toBe(1040);
      expect((await s.call(anna, 'qrScan', { key })).err).toBe(1041); // taken by Ben
      expect((await s.call(anna, 'qrConfirm', { key, confirm: '1' })).err).toBe(1041);
      expect((await s.call(ben, 'qrConfirm', { key, confirm: '1' })).err).toBe(0);
      const polled = await pub<AuthDat>('qrLogin', { key });
      expect(polled).toMatchObject({ err: 0, dat: { usr: 'owner_ben', role: 0 } });
      const info = await s.call<{ usr: string }>(polled.dat!, 'queryAccountInfo');
      expect(info.dat!.usr).toBe('owner_ben');
      expect((await s.call(polled.dat!, 'editAccount', { qname: 'Ben' })).err).toBe(0); // a full session
      expect((await pub('qrLogin', { key })).err).toBe(1041);
      expect((await s.call(ben, 'qrScan', { key })).err).toBe(1041);
    });

    it('a refused key answers 1041; keys expire (1041); 6 for a malformed key; unknown keys to scan 1041', async () => {
      const refused = newKey();
      await pub('qrLogin', { key: refused });
      expect((await s.call(ben, 'qrScan', { key: refused })).err).toBe(0);
      expect((await s.call(ben, 'qrConfirm', { key: refused, confirm: '0' })).err).toBe(0);
      expect((await pub('qrLogin', { key: refused })).err).toBe(1041);

      const old = newKey();
      await pub('qrLogin', { key: old });
      s.clock.advance(QR_KEY_TTL_MS);
      expect((await pub('qrLogin', { key: old })).err).toBe(1041);
      expect((await s.call(ben, 'qrScan', { key: old })).err).toBe(1041);

      expect((await pub('qrLogin', { key: 'short' })).err).toBe(6);
      expect((await s.call(ben, 'qrScan', { key: newKey() })).err).toBe(1041);
      const audit = await s.ctx.database.db.selectFrom('audit_log').selectAll().where('entity', '=', 'qr_login').execute();
      expect(audit.some((r) => r.action === 'qrConfirm')).toBe(true);
      expect(audit.some((r) => r.action === 'qrLogin' && r.after?.includes('waiting'))).toBe(true);
    });

    it('a QR sign-in confirmed from a demo session is a demo session too', async () => {
      const issued = await s.call<InvCodeRow>(operator, 'addInvCode', { days: 1 });
      const demo = (await pub<InvCodeLoginDat>('validateInvCode', { invCode: issued.dat!.code })).dat!;
      const key = newKey();
      await pub('qrLogin', { key });
      expect((await s.call(demo, 'qrScan', { key })).err).toBe(11); // a demo session changes nothing
      expect((await pub('qrLogin', { key })).err).toBe(1033);
    });
  });
});
