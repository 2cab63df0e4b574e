import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  signCall,
  type AuthDat,
  type CustomDomainImage,
  type CustomDomainRow,
  type DomainCheckResponse,
  type Envelope,
  type VendorCtrlPasswordRow,
} from '@sunwatch/protocol';
import { LiveFleet, MqttPublisher, simClock, type DataloggerSpec } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedTelemetry } from '../../src/demo/seed-telemetry.js';
import { loadBrandingConfig } from '../../src/modules/branding/branding.config.js';
import { DOMAIN_CHECK_PATH } from '../../src/modules/branding/branding.routes.js';
import { encodePairs, engines, startTestServer, type TestServer } from '../harness.js';

/**
 * Issue 14: per-manufacturer white-labelling as managed data (custom domains, seeded from the
 * branding file) and passwordMaintenance. A domain edit changes what the entry page reads on the
 * next request, on a second server instance sharing the database too; pictures are type-checked
 * by their bytes (an svg that could run or fetch something is refused) and served from the
 * database; a device-control password set on the operator's page guards the manufacturer's
 * devices at once (real MQTT, the real simulator), the replaced one no longer works; only the
 * operator may use any of it.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'sunwatch-domains-'));
mkdirSync(path.join(dir, 'seeded.example'));
const PNG_BYTES = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('logo-bytes')]);
writeFileSync(path.join(dir, 'seeded.example', 'logo.png'), PNG_BYTES);
writeFileSync(path.join(dir, 'seeded.example', 'bg.png'), Buffer.from('not a picture'));
const file = path.join(dir, 'branding.json');
writeFileSync(
  file,
  JSON.stringify({
    hosts: {
      'seeded.example': {
        title: 'Seeded Solar',
        logo: 'logo.png',
        background: 'bg.png',
        languages: ['de_DE'],
        demo: false,
      },
    },
  }),
);
const branding = loadBrandingConfig({ BRANDING_FILE: file }, dir);

const PN = 'SWNORTH0000001';
const INV = { pn: PN, devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
const SAFE_SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0a0"/></svg>';
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([4, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(engines)('custom domains and passwordMaintenance ($name)', (engine) => {
  let s: TestServer;
  let other: TestServer;
  let fleet: LiveFleet;
  const sessions: Record<string, AuthDat> = {};
  let makerId = 0;
  let saltSeq = 0;

  const call = async <T = unknown>(who: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions[who]!, action, params);
  const ok = async <T = unknown>(who: string, action: string, params: Record<string, string | number> = {}) => {
    const r = await call<T>(who, action, params);
    expect(r.err, `${action} ${JSON.stringify(r)}`).toBe(0);
    return r.dat as T;
  };
  const check = async (server: TestServer, host: string) =>
    (await server.app.inject({ method: 'GET', url: DOMAIN_CHECK_PATH, headers: { host } })).json<DomainCheckResponse>()
      .data;
  const list = async (params: Record<string, string | number> = {}) =>
    ok<{ total: number; domains: CustomDomainRow[] }>('operator', 'queryCustomDomainList', {
      pagesize: 100,
      ...params,
    });
  const upload = async (id: number, kind: string, bytes: Buffer, filename: string, who = 'operator') => {
    saltSeq += 1;
    const session = sessions[who]!;
    const salt = String(s.clock.now() + 5_000_000 + saltSeq);
    const tail = `&action=uploadCustomDomainImage${encodePairs({ id, kind })}`;
    const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
    const fd = new FormData();
    fd.set('file', new Blob([new Uint8Array(bytes)]), filename);
    return (await s.request<Envelope<CustomDomainImage>>(q, { method: 'POST', body: fd })).body;
  };
  const aurora = (over: Record<string, string | number> = {}) => ({
    host: 'Aurora.Example',
    vendor: makerId,
    title: 'Aurora Solar',
    languages: 'zh_CN,en_US',
    forceLanguage: 'zh_CN',
    demo: 0,
    qrLogin: 0,
    email: 'help@aurora.example',
    enabled: 1,
    ...over,
  });

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: {
        branding,
        telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false },
      },
    });
    // a second instance on the same database (as behind a load balancer)
    other = await startTestServer(engine, { shareWith: s, seed: false, config: { branding } });
    for (const [usr, pwd] of [
      ['operator', 'Operator_2026'],
      ['sunmaker', 'Maker_2026'],
      ['dealer_north', 'Dealer_2026'],
      ['owner_anna', 'Owner_2026'],
    ] as const) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      sessions[usr] = r.dat as AuthDat;
    }
    makerId = (
      await s.ctx.db.selectFrom('accounts').select('id').where('usr', '=', 'sunmaker').executeTakeFirstOrThrow()
    ).id;
    const { fleet: spec } = await seedTelemetry(s);
    const anna: DataloggerSpec = {
      ...structuredClone(spec.dataloggers.find((d) => d.pn === PN)!),
      offlineRate: 0,
      warningRate: 0,
      faultRate: 0,
      collectInterval: 10,
      heartbeatInterval: 5,
    };
    fleet = new LiveFleet([anna], {
      clock: simClock({ speed: 20, start: Date.now() - 86_400_000 }),
      tickMs: 100,
      offlineSpells: false,
      publisherFor: (d) => new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: d.pn, token: d.token }),
    });
    fleet.start();
  }, 90_000);

  afterAll(async () => {
    await fleet?.stop();
    await other?.stop();
    await s?.stop();
  });

  it('the branding file seeds its hosts (a picture the checks refuse is left out); the seed is insert-only', async () => {
    const { domains } = await list();
    expect(domains.map((d) => d.host)).toEqual(['seeded.example']);
    expect(domains[0]).toMatchObject({
      title: 'Seeded Solar',
      seeded: true,
      vendorId: 0,
      languages: ['de_DE'],
      demo: false,
      background: null,
    });
    expect(domains[0]!.logo).toMatchObject({ type: 'image/png', size: PNG_BYTES.length });
    const look = await check(other, 'seeded.example');
    expect(look).toMatchObject({ title: 'Seeded Solar', sysLogo: domains[0]!.logo!.url, background: '', demo: false });
    const served = await other.request(domains[0]!.logo!.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await (await fetch(other.url + domains[0]!.logo!.url)).arrayBuffer()).equals(PNG_BYTES)).toBe(
      true,
    );
    await ok('operator', 'setCustomDomainEnabled', { id: domains[0]!.id, enabled: 0 });
    await s.ctx.services.customDomains.seed([
      { host: 'seeded.example', title: 'Again', languages: [], forceLanguage: '', demo: true, qrLogin: true },
    ]);
    expect((await list()).domains[0]).toMatchObject({ title: 'Seeded Solar', enabled: false });
    expect((await check(s, 'seeded.example')).title).toBe('');
  });

  it('operator only: a manufacturer and a dealer get err 11 for every action', async () => {
    for (const who of ['sunmaker', 'dealer_north']) {
      expect((await call(who, 'queryCustomDomainList')).err).toBe(11);
      expect((await call(who, 'addCustomDomain', aurora())).err).toBe(11);
      expect((await call(who, 'editCustomDomain', { id: 1, ...aurora() })).err).toBe(11);
      expect((await call(who, 'setCustomDomainEnabled', { id: 1, enabled: 1 })).err).toBe(11);
      expect((await call(who, 'delCustomDomain', { id: 1 })).err).toBe(11);
      expect((await call(who, 'delCustomDomainImage', { id: 1, kind: 'logo' })).err).toBe(11);
      expect((await upload(1, 'logo', PNG_BYTES, 'l.png', who)).err).toBe(11);
      expect((await call(who, 'queryVendorCtrlPwdList')).err).toBe(11);
      expect(
        (await call(who, 'setVendorCtrlPwd', { vendor: makerId, pwd: 'Secret_42', confirmPwd: 'Secret_42' })).err,
      ).toBe(11);
      expect((await call(who, 'clearVendorCtrlPwd', { vendor: makerId })).err).toBe(11);
    }
    expect((await list()).total).toBe(1);
  });

  it('an edit changes the entry branding on the next request, on both instances; disable and delete fall back at once', async () => {
    expect((await call('operator', 'addCustomDomain', aurora({ forceLanguage: 'de_DE' }))).err).toBe(6);
    expect((await call('operator', 'addCustomDomain', aurora({ host: 'bad host/' }))).err).toBe(6);
    const dealerId = (
      await s.ctx.db.selectFrom('accounts').select('id').where('usr', '=', 'dealer_north').executeTakeFirstOrThrow()
    ).id;
    expect((await call('operator', 'addCustomDomain', aurora({ vendor: dealerId }))).err).toBe(261);
    const { id } = await ok<{ id: number }>('operator', 'addCustomDomain', aurora());
    expect((await call('operator', 'addCustomDomain', aurora())).err).toBe(14);
    const expected = {
      title: 'Aurora Solar',
      languages: ['zh_CN', 'en_US'],
      forceLanguage: 'zh_CN',
      demo: false,
      qrLogin: false,
      sysLogo: '',
    };
    expect(await check(s, 'aurora.example:443')).toMatchObject(expected);
    expect(await check(other, 'aurora.example')).toMatchObject(expected);
    const byParam = await other.request<DomainCheckResponse>(`${DOMAIN_CHECK_PATH}?domainName=AURORA.example`);
    expect(byParam.body.data.title).toBe('Aurora Solar');
    // contact of the domain, unless a consultParam row of the host exists
    const contact = await other.request<{ dat: { email: string } }>('/consultParam/getParam?appID=aurora.example');
    expect(contact.body.dat.email).toBe('help@aurora.example');

    await ok('operator', 'editCustomDomain', {
      id,
      ...aurora({ title: 'Aurora Energy', languages: '', forceLanguage: '', demo: 1, qrLogin: 1 }),
    });
    const changed = { title: 'Aurora Energy', languages: [], forceLanguage: '', demo: true, qrLogin: true };
    expect(await check(other, 'aurora.example')).toMatchObject(changed);
    expect(await check(s, 'aurora.example')).toMatchObject(changed);
    expect(
      (
        await call('operator', 'editCustomDomain', {
          id,
          ...aurora({ title: 'Aurora Energy', languages: '', forceLanguage: '', demo: 1, qrLogin: 1 }),
        })
      ).err,
    ).toBe(271);
    expect((await call('operator', 'editCustomDomain', { id: 999999, ...aurora() })).err).toBe(12);
    expect((await call('operator', 'editCustomDomain', { id, ...aurora({ host: 'seeded.example' }) })).err).toBe(14);
    expect((await list({ search: 'SUNMAKER' })).domains.map((d) => d.id)).toEqual([id]);
    expect((await list({ vendor: makerId })).total).toBe(1);
    expect((await list({ enabled: 0 })).domains.map((d) => d.host)).toEqual(['seeded.example']);

    await ok('operator', 'setCustomDomainEnabled', { id, enabled: 0 });
    expect((await check(other, 'aurora.example')).title).toBe('');
    await ok('operator', 'setCustomDomainEnabled', { id, enabled: 1 });
    expect((await check(other, 'aurora.example')).title).toBe('Aurora Energy');

    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'custom_domain')
      .where('entity_id', '=', String(id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'addCustomDomain',
      'editCustomDomain',
      'setCustomDomainEnabled',
      'setCustomDomainEnabled',
    ]);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ title: 'Aurora Solar' });
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ title: 'Aurora Energy' });
  });

  it('pictures: type-checked by their bytes, svg scripts refused, served from the database on every instance', async () => {
    const id = (await list({ search: 'aurora' })).domains[0]!.id;
    const png = await upload(id, 'logo', PNG_BYTES, 'logo.png');
    expect(png.err).toBe(0);
    expect(png.dat!.url).toMatch(/^\/branding\/aurora\.example\/logo\.png\?v=[0-9a-f]{12}$/);
    expect((await check(other, 'aurora.example')).sysLogo).toBe(png.dat!.url);
    const got = await fetch(other.url + png.dat!.url);
    expect([got.status, got.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG_BYTES)).toBe(true);

    const svg = await upload(id, 'background', Buffer.from(SAFE_SVG), 'bg.svg');
    expect(svg.dat).toMatchObject({ type: 'image/svg+xml' });
    const served = await other.request(svg.dat!.url);
    expect(served.headers.get('content-type')).toContain('image/svg+xml');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect((await check(s, 'aurora.example')).background).toBe(svg.dat!.url);
    expect((await upload(id, 'background', WEBP, 'bg.webp')).dat).toMatchObject({ type: 'image/webp' });

    const refused = [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x.png"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><a xlink:href="javascript:alert(1)"><rect/></a></svg>',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div/></foreignObject></svg>',
      '<svg><rect style="fill:url(https://evil.example/p)"/></svg>',
      '<html><body>not svg</body></html>',
    ];
    for (const bad of refused) expect((await upload(id, 'logo', Buffer.from(bad), 'x.svg')).err, bad).toBe(6);
    expect((await upload(id, 'logo', Buffer.from('plain text'), 'x.png')).err).toBe(6);
    expect((await upload(id, 'logo', PNG_BYTES, 'x.gif')).err).toBe(6);
    expect((await upload(id, 'logo', Buffer.concat([PNG_BYTES, Buffer.alloc(1024 * 1024)]), 'big.png')).err).toBe(13);
    expect((await upload(999999, 'logo', PNG_BYTES, 'x.png')).err).toBe(12);
    expect((await check(other, 'aurora.example')).sysLogo).toBe(png.dat!.url); // unchanged by the refusals

    // a new picture is a new URL; removal shows none at once
    const jpg = await upload(id, 'logo', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'l.jpg');
    expect(jpg.dat!.url).toMatch(/\/logo\.jpg\?v=/);
    expect((await check(other, 'aurora.example')).sysLogo).toBe(jpg.dat!.url);
    await ok('operator', 'delCustomDomainImage', { id, kind: 'logo' });
    expect((await check(other, 'aurora.example')).sysLogo).toBe('');
    expect((await other.request('/branding/aurora.example/logo.jpg')).status).toBe(404);
    expect((await call('operator', 'delCustomDomainImage', { id, kind: 'logo' })).err).toBe(271);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'uploadCustomDomainImage')
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(audit)).not.toContain('logo-bytes');
  });

  it('delete: the host shows the default look on the next request', async () => {
    const id = (await list({ search: 'aurora' })).domains[0]!.id;
    await ok('operator', 'delCustomDomain', { id });
    expect((await check(other, 'aurora.example')).title).toBe('');
    expect((await other.request('/branding/aurora.example/background.webp')).status).toBe(404);
    expect((await call('operator', 'delCustomDomain', { id })).err).toBe(12);
    await ok('operator', 'addCustomDomain', aurora()); // for the password page's domain column
  });

  it('passwordMaintenance: a password set on the page guards the manufacturer’s devices at once; reset and clear', async () => {
    await until('the datalogger online', async () => {
      const dl = await s.ctx.db.selectFrom('dataloggers').select('status').where('pn', '=', PN).executeTakeFirst();
      return dl?.status === 0;
    });
    const vendors = async (params: Record<string, string | number> = {}) =>
      (
        await ok<{ total: number; vendors: VendorCtrlPasswordRow[] }>('operator', 'queryVendorCtrlPwdList', {
          pagesize: 100,
          ...params,
        })
      ).vendors;
    const maker = () => vendors({ search: 'aurora.example' }).then((v) => v.find((x) => x.vendorId === makerId)!);
    expect(await maker()).toMatchObject({
      usr: 'sunmaker',
      domains: ['aurora.example'],
      set: false,
      setAt: 0,
      setBy: '',
    });
    const ctrl = (pwd?: string) =>
      call('owner_anna', 'ctrlDevice', { ...INV, id: 'los_output_source_priority', val: '2', ...(pwd ? { pwd } : {}) });
    expect((await ctrl()).err).toBe(0);

    expect(
      (await call('operator', 'setVendorCtrlPwd', { vendor: makerId, pwd: 'Secret_42', confirmPwd: 'Secret_43' })).err,
    ).toBe(6);
    expect(
      (await call('operator', 'setVendorCtrlPwd', { vendor: makerId, pwd: 'ab cdefg', confirmPwd: 'ab cdefg' })).err,
    ).toBe(17);
    expect(
      (await call('operator', 'setVendorCtrlPwd', { vendor: 999999, pwd: 'Secret_42', confirmPwd: 'Secret_42' })).err,
    ).toBe(261);
    await ok('operator', 'setVendorCtrlPwd', { vendor: makerId, pwd: 'Secret_42', confirmPwd: 'Secret_42' });
    const row = await maker();
    expect(row).toMatchObject({ set: true, setBy: 'operator' });
    expect(row.setAt).toBeGreaterThan(0);
    expect((await ctrl()).err).toBe(11);
    expect((await ctrl('Secret_42')).err).toBe(0);

    await ok('operator', 'setVendorCtrlPwd', { vendor: makerId, pwd: 'Other_pwd_7', confirmPwd: 'Other_pwd_7' });
    expect((await ctrl('Secret_42')).err).toBe(11);
    expect((await ctrl('Other_pwd_7')).err).toBe(0);
    expect((await vendors({ set: 1 })).map((v) => v.vendorId)).toEqual([makerId]);

    await ok('operator', 'clearVendorCtrlPwd', { vendor: makerId });
    expect((await ctrl()).err).toBe(0);
    expect((await call('operator', 'clearVendorCtrlPwd', { vendor: makerId })).err).toBe(271);
    expect((await vendors({ set: 1 })).length).toBe(0);

    // never the password or its hash: not in answers, the audit log or the action log
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'device_ctrl_password')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['setVendorCtrlPwd', 'setVendorCtrlPwd', 'clearVendorCtrlPwd']);
    const logs = JSON.stringify([
      audit,
      await s.ctx.db.selectFrom('action_log').selectAll().execute(),
      await vendors(),
    ]);
    for (const secret of ['Secret_42', 'Other_pwd_7', 'scrypt$']) expect(logs).not.toContain(secret);
  }, 60_000);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
