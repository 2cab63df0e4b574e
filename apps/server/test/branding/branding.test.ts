import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiCallError, type AuthDat, type ConsultDat, type DomainCheckResponse, type NoticeDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadBrandingConfig } from '../../src/modules/branding/branding.config.js';
import { DOMAIN_CHECK_PATH } from '../../src/modules/branding/branding.routes.js';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';

/**
 * Issue 12 branding (spec §2, §7): nodes, the look and options per host (the Host header or the
 * page's parameter decides), the app of a host, the platform notice and the contact info with
 * their operator writes (audited), CORS for the other nodes' pages, the host assets.
 */
const NODE_B = 'http://127.0.0.1:9';
const dir = mkdtempSync(path.join(os.tmpdir(), 'sunwatch-branding-'));
mkdirSync(path.join(dir, 'brand.example'));
writeFileSync(path.join(dir, 'brand.example', 'ios.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
writeFileSync(path.join(dir, 'brand.example', 'logo.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
const file = path.join(dir, 'branding.json');
writeFileSync(
  file,
  JSON.stringify({
    nodes: [
      { name: 'Europe', url: '' },
      { name: 'Asia', url: NODE_B },
    ],
    default: { contact: { phoneNum: '+49 40 1', email: 'help@default.example', wechat: '', englishName: 'Default' } },
    hosts: {
      'brand.example': {
        title: 'Aurora Solar',
        logo: 'logo.png',
        languages: ['zh_CN', 'en_US'],
        forceLanguage: 'zh_CN',
        demo: false,
        qrLogin: false,
        app: { ios: 'https://apps.example/ios', android: 'https://apps.example/android' },
        filingNumber: 'ICP 123',
        versionLabel: 'v9 Aurora',
      },
    },
  }),
);
const branding = loadBrandingConfig({ BRANDING_FILE: file }, dir);

async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

describe('branding configuration', () => {
  it('is validated at start with the offending path', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ hosts: { 'x.example': { forceLanguage: 'xx_XX' } } }));
    expect(() => loadBrandingConfig({ BRANDING_FILE: bad }, dir)).toThrow(/hosts\.x\.example\.forceLanguage/);
    writeFileSync(bad, JSON.stringify({ nodes: [{ name: 'n', url: 'http://a.example/path' }] }));
    expect(() => loadBrandingConfig({ BRANDING_FILE: bad }, dir)).toThrow(/nodes\.0\.url/);
    expect(() => loadBrandingConfig({ SERVER_NODES: 'not json' }, dir)).toThrow(/SERVER_NODES/);
    // SERVER_NODES replaces the file's nodes
    const env = loadBrandingConfig({ BRANDING_FILE: file, SERVER_NODES: JSON.stringify([{ name: 'Only', url: '' }]) }, dir);
    expect(env.nodes).toEqual([{ name: 'Only', url: '' }]);
    expect(env.hosts['brand.example']?.title).toBe('Aurora Solar');
  });
});

describe.each(engines)('branding ($name)', (engine) => {
  let s: TestServer;
  let operator: ApiClient;
  let dealer: ApiClient;
  let pub: ApiClient;

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { branding } });
    const login = async (usr: string, pwd: string) => {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      return s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret });
    };
    operator = await login('operator', 'Operator_2026');
    dealer = await login('dealer_north', 'Dealer_2026');
    pub = s.api();
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('queryDomainListNotLogin answers the configured nodes', async () => {
    expect(await pub.call('queryDomainListNotLogin', {})).toEqual([
      { name: 'Europe', url: '' },
      { name: 'Asia', url: NODE_B },
    ]);
  });

  it('the domain check differs by host: the Host header, or the domainName parameter', async () => {
    // fetch cannot set Host: inject the request with the host a browser would send
    const check = async (host: string) =>
      (await s.app.inject({ method: 'GET', url: DOMAIN_CHECK_PATH, headers: { host } })).json<DomainCheckResponse>();
    expect(await check('BRAND.example:8080')).toEqual({
      code: 0,
      data: {
        background: '',
        // the file's host is seeded into the custom-domain table (issue 14): its logo is served from there
        sysLogo: expect.stringMatching(/^\/branding\/brand\.example\/logo\.png\?v=[0-9a-f]{12}$/),
        title: 'Aurora Solar',
        languages: ['zh_CN', 'en_US'],
        forceLanguage: 'zh_CN',
        demo: false,
        qrLogin: false,
        app: true,
        filingNumber: 'ICP 123',
        versionLabel: 'v9 Aurora',
      },
    });
    expect((await check('localhost')).data).toMatchObject({ title: '', sysLogo: '', languages: [], forceLanguage: '', demo: true, qrLogin: true, app: false, filingNumber: '' });
    const byParam = await s.request<DomainCheckResponse>(`${DOMAIN_CHECK_PATH}?domainName=brand.example`);
    expect(byParam.body.data.title).toBe('Aurora Solar');
  });

  it('queryDomainApp: links and the QR images that exist; err 12 for a host without an app', async () => {
    expect(await pub.call('queryDomainApp', { host: 'brand.example', language: 'en_US' })).toEqual({
      host: 'brand.example',
      ios: 'https://apps.example/ios',
      android: 'https://apps.example/android',
      iosQr: '/branding/brand.example/ios.png',
      androidQr: '',
    });
    expect(await errOf(pub.call('queryDomainApp', { host: 'localhost' }))).toBe(12);
    expect(await errOf(pub.call('queryDomainApp', { host: 'bad host/..' }))).not.toBe(0);
  });

  it('host assets are served; anything outside the folder is not', async () => {
    const ok = await s.request('/branding/brand.example/ios.png');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect((await s.request('/branding/brand.example/missing.png')).status).toBe(404);
    expect((await s.request('/branding/..%2F..%2Fetc/passwd.png')).status).toBe(404);
    expect((await s.request('/branding/brand.example/branding.json')).status).toBe(404);
  });

  it('notices: none (12) until the operator sets one per client language; msgType 0 withdraws; audited', async () => {
    const task = (lang: number) => s.request<{ err: number; dat?: NoticeDat }>(`/getTask?client=1&client_account=0&client_content=2&client_language=${lang}`);
    expect((await task(2)).body.err).toBe(12);
    expect(await errOf(dealer.call('setPlatformNotice', { clientLanguage: 2, msgType: 2, title: 'x', content: 'y' }))).toBe(11);
    expect(await errOf(operator.call('setPlatformNotice', { clientLanguage: 2, msgType: 2, title: '', content: 'y' }))).toBe(7);
    const set = await operator.call('setPlatformNotice', { clientLanguage: 2, msgType: 2, title: 'Maintenance', content: 'Sunday 02:00' });
    const got = (await task(2)).body;
    expect(got).toMatchObject({ err: 0, dat: { id: set.id, msgType: 2, title: 'Maintenance', content: 'Sunday 02:00', uts: set.uts } });
    expect((await task(1)).body.err).toBe(12); // Chinese has its own notice
    await operator.call('setPlatformNotice', { clientLanguage: 2, msgType: 0 });
    expect((await task(2)).body.err).toBe(12);
    const audit = await s.ctx.db.selectFrom('audit_log').selectAll().where('entity', '=', 'platform_notice').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['setPlatformNotice', 'setPlatformNotice']);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ msgType: 2, title: 'Maintenance' });
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ msgType: 0 });
  });

  it('contact info: the host row, else the platform row, else the branding file; operator only', async () => {
    const get = async (appID: string) =>
      (await s.request<{ err: number; dat: ConsultDat }>(`/consultParam/getParam?i18n=en_US&appID=${appID}`)).body;
    expect((await get('brand.example')).dat).toEqual({ phoneNum: '+49 40 1', email: 'help@default.example', wechat: '', englishName: 'Default' });
    expect(await errOf(dealer.call('setConsultParam', { appID: 'brand.example', phoneNum: '1' }))).toBe(11);
    expect(await errOf(operator.call('setConsultParam', { appID: 'brand.example', email: 'not-mail' }))).not.toBe(0);
    await operator.call('setConsultParam', { phoneNum: '+1 555', email: 'all@p.example', englishName: 'Platform' });
    await operator.call('setConsultParam', { appID: 'brand.example', phoneNum: '+86 10 1', email: 'cn@aurora.example', wechat: 'aurora', englishName: 'Aurora' });
    expect((await get('brand.example')).dat).toEqual({ phoneNum: '+86 10 1', email: 'cn@aurora.example', wechat: 'aurora', englishName: 'Aurora' });
    expect((await get('other.example')).dat.email).toBe('all@p.example');
    const audit = await s.ctx.db.selectFrom('audit_log').select(['entity_id', 'before', 'after']).where('entity', '=', 'consult_param').orderBy('id').execute();
    expect(audit.map((a) => a.entity_id)).toEqual(['*', 'brand.example']);
  });

  it("the action endpoint answers the configured nodes' pages (CORS), no one else; CSP lets the page call them", async () => {
    const nodes = await s.request('/public/?action=queryDomainListNotLogin&source=1', { headers: { origin: NODE_B } });
    expect(nodes.headers.get('access-control-allow-origin')).toBe(NODE_B);
    const evil = await s.request('/public/?action=queryDomainListNotLogin&source=1', { headers: { origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(nodes.headers.get('content-security-policy')).toMatch(new RegExp(`connect-src 'self' ${NODE_B.replace(/[.]/g, '\\.')}`));
  });

  it("a node page's preflight (an upload with progress) is answered, no one else's; stored files show in its pages", async () => {
    const pre = await s.request('/public/?action=uploadAvatar', { method: 'OPTIONS', headers: { origin: NODE_B, 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(NODE_B);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    const evil = await s.request('/public/', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const file = await s.request('/files/avatar/0123456789abcdef0123456789abcdef.png');
    expect(file.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(file.headers.get('content-security-policy')).toMatch(new RegExp(`img-src 'self' data: blob: ${NODE_B.replace(/[.]/g, '\\.')}`));
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
// keep loadConfig's default reachable: no file = one node, the default look
it('without configuration: one node (this server), the default look', () => {
  const c = loadConfig({}).branding;
  expect(c.nodes).toEqual([]);
  expect(c.default.demo).toBe(true);
  expect(c.hosts).toEqual({});
});
