import { createHash } from 'node:crypto';
import type { AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDistribution } from '../../src/demo/seed-distribution.js';
import { CODE_RETENTION_MS, purgeVerificationCodes } from '../../src/modules/selfservice/purge-codes.job.js';
import { FIXED_NOW, encodePairs, engines, freshIp, startTestServer, type TestServer } from '../harness.js';

/**
 * The vendor's `reg` (vendor-actions.md §3) through the signed HTTP endpoint, with an encoder of
 * its own (node:crypto SHA-1 and an RC4 written here, not the protocol's functions):
 * pwd = hex(RC4(key = sha1hex(PN), sha1hex(password))), sign = sha1(salt + pwd + tail).
 * Also the purge of old verification codes (housekeeping job) with the test clock.
 */

const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');

/** RC4 (KSA + PRGA) over UTF-8 bytes; the output as lowercase hex. */
function rc4Hex(key: string, text: string): string {
  const k = Buffer.from(key, 'utf8');
  const S = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + S[i]! + k[i % k.length]!) & 255;
    [S[i], S[j]] = [S[j]!, S[i]!];
  }
  const data = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + S[i]!) & 255;
    [S[i], S[j]] = [S[j]!, S[i]!];
    out[n] = data[n]! ^ S[(S[i]! + S[j]!) & 255]!;
  }
  return out.toString('hex');
}

interface Env<T = unknown> {
  err: number;
  desc?: string;
  dat?: T;
}

interface RegForm {
  usr: string;
  password: string;
  sn: string;
  mobile?: string;
  email?: string;
  companyKey?: string;
  /** Sunwatch's pwdtext (the clear password, RC4 with the same key), for the §5 rules. */
  withText?: boolean;
  /** Overrides of the encoded pwd / the prefix the sign is made with. */
  pwd?: string;
  signPrefix?: string;
  omit?: string;
}

let saltSeq = 0;

describe.each(engines)('vendor reg ($name)', (engine) => {
  let s: TestServer;

  /** GET /public/?sign&salt&action=reg&usr&pwd&mobile&email&sn&company-key&source&_app_* (the vendor's order). */
  async function reg(f: RegForm, ip = '10.77.0.1'): Promise<Env<AuthDat>> {
    const pwd = f.pwd ?? rc4Hex(sha1(f.sn), sha1(f.password));
    const pairs: Record<string, string> = {
      usr: f.usr,
      pwd,
      mobile: f.mobile ?? '',
      email: f.email ?? '',
      sn: f.sn,
      'company-key': f.companyKey ?? '0123456789ABCDEF',
      ...(f.withText ? { pwdtext: rc4Hex(sha1(f.sn), f.password) } : {}),
      source: '0',
      _app_client_: 'android',
      _app_id_: 'com.demo.test',
      _app_version_: '3.6.2.1',
    };
    if (f.omit) delete pairs[f.omit];
    const tail = `&action=reg${encodePairs(pairs)}`;
    saltSeq += 1;
    const salt = String(s.clock.now() + saltSeq);
    const sign = sha1(salt + (f.signPrefix ?? pwd) + tail);
    return (await s.request<Env<AuthDat>>(`/public/?sign=${sign}&salt=${salt}${tail}`, { ip })).body;
  }

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    await seedDistribution({ ctx: s.ctx }); // dealer_north's stock: unregistered PNs
  }, 60_000);
  afterAll(() => s?.stop());

  it('registers an owner from an unregistered PN: login reply, default plant, datalogger bound, audited; then login works', async () => {
    const form = { usr: 'vendor_reg_1', password: 'Vendor_2026', sn: 'SWNORTH0000103', email: 'Vendor.Reg@Example.com', mobile: '4915112345678' };
    const r = await reg(form);
    expect(r.err, JSON.stringify(r)).toBe(0);
    expect(r.desc).toBe('ERR_NONE');
    const dat = r.dat!;
    expect(dat).toMatchObject({ role: 0, usr: 'vendor_reg_1', expire: 604800 });
    expect(dat.token).toMatch(/^[0-9a-f]{64}$/);
    expect(dat.secret).toMatch(/^[0-9a-f]{40}$/);
    expect(typeof dat.uid).toBe('number');

    // the reply's session works at once
    const info = await s.call<{ usr: string; email: string; mobile: string }>(dat, 'queryAccountInfo', {});
    expect(info.dat).toMatchObject({ usr: 'vendor_reg_1', email: 'vendor.reg@example.com', mobile: '4915112345678' });

    const acc = await s.ctx.repos.accounts.findByUsr('vendor_reg_1');
    const dealer = await s.ctx.repos.accounts.findByUsr('dealer_north');
    expect(acc).toMatchObject({ id: dat.uid, role: 0, parent_id: dealer!.id });
    const plant = await s.ctx.db.selectFrom('projects').selectAll().where('owner_id', '=', acc!.id).executeTakeFirstOrThrow();
    expect(plant).toMatchObject({ name: 'SWNORTH0000103', is_default: 1 });
    const dl = await s.ctx.db.selectFrom('dataloggers').selectAll().where('pn', '=', 'SWNORTH0000103').executeTakeFirstOrThrow();
    expect({ owner: Number(dl.owner_id), plant: Number(dl.project_id) }).toEqual({ owner: acc!.id, plant: Number(plant.id) });

    // audited in the call's transaction: the account, its plant, the datalogger binding and the session; no password material
    const audit = await s.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'reg').execute();
    expect(audit.map((a) => a.entity)).toEqual(expect.arrayContaining(['account', 'plant', 'session']));
    expect(audit.every((a) => Number(a.account_id) === acc!.id)).toBe(true);
    const text = JSON.stringify(audit);
    for (const secret of [sha1('Vendor_2026'), 'Vendor_2026', dat.token, dat.secret]) expect(text).not.toContain(secret);

    // an ordinary sign-in with the new account sees its plant and the datalogger
    const login = await s.login('vendor_reg_1', 'Vendor_2026');
    expect(login.err).toBe(0);
    const plants = await s.call<{ total: number; plant: Array<{ pid: number; pname?: string; name?: string }> }>(login.dat!, 'queryPlants', { pagesize: 10 });
    expect(plants.err).toBe(0);
    expect(plants.dat!.total).toBe(1);
    expect(plants.dat!.plant[0]!.pid).toBe(Number(plant.id));
    const loggers = await s.call<{ total: number; collector: Array<{ pn: string }> }>(login.dat!, 'queryCollectors', { pagesize: 10 });
    expect(loggers.err).toBe(0);
    expect(loggers.dat!.collector.map((c) => c.pn)).toEqual(['SWNORTH0000103']);

    // the same call again: the PN is registered now (and the name taken)
    expect((await reg({ ...form, usr: 'vendor_reg_2', email: '', mobile: '' })).err).toBe(520);
    expect((await reg({ ...form, sn: 'SWNORTH0000104', email: '', mobile: '' })).err).toBe(519);
  });

  it('answers every error code of the vendor page and the spec', async () => {
    const ok: RegForm = { usr: 'vendor_reg_x', password: 'Vendor_2026', sn: 'SWNORTH0000104', withText: true };
    const cases: Array<[string, RegForm, number]> = [
      ['missing sn', { ...ok, omit: 'sn' }, 7],
      ['missing usr', { ...ok, omit: 'usr' }, 7],
      ['missing pwd', { ...ok, omit: 'pwd' }, 7],
      ['missing company-key', { ...ok, omit: 'company-key' }, 7],
      ['signed with the password digest instead of pwd', { ...ok, signPrefix: sha1('Vendor_2026') }, 4],
      ['unknown company key', { ...ok, companyKey: 'nope-nope' }, 15],
      ['username format', { ...ok, usr: 'bad name!' }, 21],
      ['username too short', { ...ok, usr: 'x' }, 21],
      ['mobile format', { ...ok, mobile: '12ab' }, 19],
      ['email format', { ...ok, email: 'not-an-email' }, 20],
      ['mobile of another account', { ...ok, mobile: '13800138001' }, 18],
      ['email of another account', { ...ok, email: 'DORA@example.com' }, 26],
      ['PN format', { ...ok, sn: 'sw-1' }, 259],
      ['pwd keyed by the username, not the PN', { ...ok, pwd: rc4Hex(sha1('vendor_reg_x'), sha1('Vendor_2026')) }, 16],
      ['pwd not hex', { ...ok, pwd: 'zz' }, 16],
      ['too simple', { ...ok, password: '123456', withText: false }, 17],
      ['too short (pwdtext)', { ...ok, password: 'short' }, 17],
      ['pwdtext of another password', { ...ok, pwd: rc4Hex(sha1(ok.sn), sha1('Other_2026')) }, 17],
      ['username taken', { ...ok, usr: 'owner_anna' }, 519],
      ['unknown PN', { ...ok, sn: 'SWNOPE00000001' }, 257],
      ['PN bound to another owner', { ...ok, sn: 'SWNORTH0000001' }, 520],
    ];
    for (const [what, form, err] of cases) expect((await reg(form)).err, what).toBe(err);
    expect(await s.ctx.repos.accounts.findByUsr('vendor_reg_x')).toBeUndefined();
    const dl = await s.ctx.db.selectFrom('dataloggers').select('owner_id').where('pn', '=', 'SWNORTH0000104').executeTakeFirstOrThrow();
    expect(dl.owner_id).toBeNull();

    // an unsigned extra parameter on a state-changing call is refused (wire-protocol.md §4a)
    const pwd = rc4Hex(sha1(ok.sn), sha1(ok.password));
    const tail = `&action=reg${encodePairs({ usr: ok.usr, pwd, sn: ok.sn, 'company-key': '0123456789ABCDEF' })}`;
    const salt = String(s.clock.now() + 999);
    const signed = sha1(salt + pwd + tail);
    const unsigned = await s.request<Env>(`/public/?email=x%40example.com&sign=${signed}&salt=${salt}${tail}`);
    expect(unsigned.body.err).toBe(4);
  });

  it('writes nothing when binding the datalogger fails (one transaction)', async () => {
    const admin = s.ctx.services.collectorAdmin;
    const original = admin.addToPlant.bind(admin);
    admin.addToPlant = () => Promise.reject(new Error('binding failed'));
    try {
      const r = await reg({ usr: 'vendor_reg_rb', password: 'Vendor_2026', sn: 'SWNORTH0000105', email: 'rollback@example.com' });
      expect(r.err).not.toBe(0);
    } finally {
      admin.addToPlant = original;
    }
    expect(await s.ctx.repos.accounts.findByUsr('vendor_reg_rb')).toBeUndefined();
    const plants = await s.ctx.db.selectFrom('projects').select('id').where('name', '=', 'SWNORTH0000105').execute();
    expect(plants).toHaveLength(0);
    expect(await s.ctx.db.selectFrom('audit_log').select('id').where('action', '=', 'reg').where('entity', '=', 'account').execute()).toHaveLength(1);
    // and the same registration succeeds once binding works
    const again = await reg({ usr: 'vendor_reg_rb', password: 'Vendor_2026', sn: 'SWNORTH0000105', email: 'rollback@example.com' });
    expect(again.err).toBe(0);
  });

  it('purges verification codes older than a day, used or expired, and keeps newer ones', async () => {
    const ip = freshIp();
    const send = async (email: string) =>
      (await s.request<Env>(`/public/?action=sendSmsCodeMobile${encodePairs({ channel: '1', email, source: 1 })}`, { ip })).body.err;
    const pictures = async () => (await s.ctx.db.selectFrom('picture_codes').select('key').execute()).length;
    expect(await send('old.code@example.com')).toBe(0);
    expect((await s.request<Env>(`/public/?action=getPictureCode&source=1`, { ip })).body.err).toBe(0);
    s.clock.advance(CODE_RETENTION_MS - 60_000);
    expect(await send('recent.code@example.com')).toBe(0);
    const targets = async () =>
      (await s.ctx.db.selectFrom('verification_codes').select('target').where('target', 'like', '%.code@example.com').execute()).map((r) => r.target).sort();
    // not a day old yet: nothing goes
    expect((await purgeVerificationCodes(s.ctx)).codes).toBe(0);
    expect(await targets()).toEqual(['old.code@example.com', 'recent.code@example.com']);
    const picturesBefore = await pictures();
    expect(picturesBefore).toBeGreaterThan(0);

    s.clock.advance(120_000);
    const purged = await purgeVerificationCodes(s.ctx);
    expect(purged.codes).toBe(1);
    expect(purged.pictures).toBe(picturesBefore);
    expect(await targets()).toEqual(['recent.code@example.com']);
    expect(await pictures()).toBe(0);
    const oldest = await s.ctx.db.selectFrom('verification_codes').select((eb) => eb.fn.min('created_at').as('t')).executeTakeFirstOrThrow();
    expect(Number(oldest.t)).toBeGreaterThanOrEqual(s.clock.now() - CODE_RETENTION_MS);
  });
});
