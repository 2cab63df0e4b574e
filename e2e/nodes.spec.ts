/**
 * Issue 12: server nodes and host branding in the browser.
 * - Branding differs by host: the harness server answers 127.0.0.1 with a configured brand
 *   (logo, title, languages, no QR face, no demo, app download with QR image, filing number for
 *   Chinese, version label) and localhost with today's look; the operator's notice shows once.
 * - Node retry (spec §4): a second server on loopback holds an account the first does not know;
 *   login on the first answers 261, the page toggles the node cookie to the second and signs in there.
 *   With that node chosen, a multipart upload (avatar) goes to it and its stored file shows from it.
 * - App download: the operator's QR image where configured, else a code drawn from the link.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { createApiClient, WEB_COMPANY_KEY, type AuthDat } from '@sunwatch/protocol';
import { loadConfig, seedDemo, startServer } from '@sunwatch/server';
import { useHarness } from './harness';
import { DEMO, landingPattern, login, loginError } from './entry-page';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
function png(width: number, height: number): Buffer {
  const p = new PNG({ width, height });
  for (let i = 0; i < p.data.length; i += 4) p.data.set([40, (i / 4) % 256, 180, 255], i);
  return PNG.sync.write(p);
}

const port2 = await freePort();
const NODE_B = `http://127.0.0.1:${port2}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'sunwatch-nodes-'));
mkdirSync(path.join(dir, '127.0.0.1'));
writeFileSync(path.join(dir, '127.0.0.1', 'logo.png'), PNG_1PX);
writeFileSync(path.join(dir, '127.0.0.1', 'ios.png'), PNG_1PX);
writeFileSync(
  path.join(dir, 'branding.json'),
  JSON.stringify({
    hosts: {
      '127.0.0.1': {
        title: 'Aurora Solar',
        logo: 'logo.png',
        languages: ['en_US', 'zh_CN'],
        demo: false,
        qrLogin: false,
        app: { ios: 'https://apps.example/aurora-ios', android: 'https://apps.example/aurora-android' },
        filingNumber: 'ICP 2026-001',
        versionLabel: 'Aurora 9',
        contact: { phoneNum: '+49 40 555', email: 'help@aurora.example', englishName: 'Aurora Solar GmbH' },
      },
    },
  }),
);
const saved = { BRANDING_FILE: process.env.BRANDING_FILE, SERVER_NODES: process.env.SERVER_NODES };
process.env.BRANDING_FILE = path.join(dir, 'branding.json');
process.env.SERVER_NODES = JSON.stringify([
  { name: 'Europe', url: '' },
  { name: 'Asia', url: NODE_B },
]);

const h = useHarness();
let second: Awaited<ReturnType<typeof startServer>> | undefined;

beforeAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  // the second node: its own database, no web app, the first node's pages may call it (CORS)
  second = await startServer(
    loadConfig({
      ...process.env,
      PORT: String(port2),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'node-b'),
      DATABASE_URL: '',
      SQLITE_PATH: '',
      WEB_ROOT: path.join(dir, 'no-web'),
      DEMO_DATA: '0',
      MQTT_URL: '',
      MQTT_HOST: '127.0.0.1',
      MQTT_PORT: '0',
      JOBS_ENABLED: '0',
      LOG_LEVEL: 'warn',
      SIGN_POLICY: 'strict',
      BRANDING_FILE: '',
      SERVER_NODES: JSON.stringify([
        { name: 'Europe', url: h().baseUrl },
        { name: 'Asia', url: '' },
      ]),
    }),
  );
  await seedDemo(second.app);
  const dealer = (await second.app.ctx.repos.accounts.findByUsr('dealer_north'))!;
  await second.app.ctx.services.accounts.create({ usr: 'asia_owner', password: 'Asia_2026', role: 0, parentId: dealer.id });
}, 120_000);

afterAll(async () => {
  await second?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('branding per host', () => {
  it('127.0.0.1 shows its brand and options, localhost keeps the default look; the notice shows once per session', async () => {
    const b = h().baseUrl;
    // the operator publishes a notice (msgType 2 = dialog) for non-Chinese languages
    const op = await createApiClient({ baseUrl: `${b}/public/`, companyKey: WEB_COMPANY_KEY }).login(DEMO.operator.usr, DEMO.operator.pwd);
    const opApi = createApiClient({ baseUrl: `${b}/public/`, companyKey: WEB_COMPANY_KEY, getSession: () => op as AuthDat });
    await opApi.call('setPlatformNotice', { clientLanguage: 2, msgType: 2, title: 'Maintenance', content: 'Sunday 02:00–03:00 UTC' });

    const page = await h().newPage();
    await page.goto(`${b}/entry`);
    await expect.poll(() => page.getByTestId('entry-page').getAttribute('data-brand')).toBe('Aurora Solar');
    await page.getByTestId('notice-dialog').waitFor();
    expect(await page.getByTestId('notice-dialog').textContent()).toContain('Sunday 02:00–03:00 UTC');
    await page.getByTestId('notice-ok').click();
    expect(await page.getByTestId('brand-title').textContent()).toBe('Aurora Solar');
    expect(await page.getByTestId('brand-logo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    expect(await page.getByTestId('switch-qr').count()).toBe(0);
    expect(await page.getByTestId('language-picker').locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['en_US', 'zh_CN']);
    expect(await page.getByTestId('entry-version').textContent()).toContain('Aurora 9');
    expect(await page.getByTestId('filing-number').count()).toBe(0); // Chinese only
    await page.getByTestId('app-download').click();
    const dlg = page.getByTestId('app-download-dialog');
    expect(await dlg.getByTestId('app-link-ios').getAttribute('href')).toBe('https://apps.example/aurora-ios');
    // ios.png is the operator's; Android has none: its code is drawn in the page from the link
    await expect.poll(() => dlg.getByTestId('app-qr').count()).toBe(2);
    expect(await dlg.getByTestId('app-qr').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).dataset.qrSource))).toEqual(['operator', 'generated']);
    const drawn = dlg.getByTestId('app-qr').nth(1);
    expect(await drawn.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => drawn.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(128);

    await page.keyboard.press('Escape');
    await page.getByTestId('contact-us').click();
    await expect.poll(() => page.getByTestId('contact-dialog').textContent()).toContain('help@aurora.example');
    await h().screenshot(page, 'nodes-branded-entry');
    // dismissed for this session: a reload does not show it again
    await page.reload();
    await expect.poll(() => page.getByTestId('entry-page').getAttribute('data-brand')).toBe('Aurora Solar');
    expect(await page.getByTestId('notice-dialog').count()).toBe(0);

    const zh = await h().newPage({ locale: 'zh-CN' });
    await zh.goto(`${b}/entry`);
    await zh.getByTestId('filing-number').waitFor();
    expect(await zh.getByTestId('filing-number').textContent()).toContain('ICP 2026-001');

    const other = await h().newPage();
    await other.goto(b.replace('127.0.0.1', 'localhost') + '/entry');
    await expect.poll(() => other.getByTestId('entry-page').getAttribute('data-brand')).toBe('default');
    expect(await other.getByTestId('brand-title').textContent()).toBe('Sunwatch');
    expect(await other.getByTestId('brand-logo').count()).toBe(0);
    expect(await other.getByTestId('switch-qr').count()).toBe(1);
    expect(await other.getByTestId('app-download').count()).toBe(0);
    expect(await other.getByTestId('language-picker').locator('option').count()).toBe(11);
    await other.getByTestId('notice-dialog').waitFor(); // its own session
    await opApi.call('setPlatformNotice', { clientLanguage: 2, msgType: 0 });
  }, 180_000);
});

describe('server nodes', () => {
  it('login answers 261 on the first node, retries on the second and signs in there; the picker stores the node', async () => {
    const page = await h().newPage();
    await page.goto(`${h().baseUrl}/entry`);
    try {
      await login(page, 'asia_owner', 'Asia_2026', { goto: false });
      await page.waitForURL(landingPattern(0));
    } catch (e) {
      await h().screenshot(page, 'nodes-retry-failure');
      throw e;
    }
    const cookie = async () => (await page.context().cookies()).find((c) => c.name === 'sw_node')?.value;
    expect(decodeURIComponent((await cookie()) ?? '')).toBe(NODE_B);
    // the landing page's calls went to the second node: its session is there
    const sessions = await second!.app.ctx.db.selectFrom('sessions').select('id').execute();
    expect(sessions.length).toBeGreaterThan(0);

    // with the node chosen, a multipart upload (the avatar) goes to the node, and the stored file shows from there
    await page.goto(`${h().baseUrl}/generalNew/personalBasic`);
    await page.getByTestId('basic-info-card').waitFor({ state: 'visible' });
    const upload = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('action=uploadAvatar'));
    await page.locator('[data-testid=basic-info-card] input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(64, 64) });
    expect(new URL((await upload).url()).origin).toBe(NODE_B);
    await page.waitForFunction(
      (node) => {
        const img = document.querySelector<HTMLImageElement>('[data-testid=header-avatar] img');
        return !!img && img.src.startsWith(`${node}/files/avatar/`) && img.complete && img.naturalWidth > 0;
      },
      NODE_B,
    );

    // unknown on both nodes: the error shows and the cookie is removed
    const p2 = await h().newPage();
    await p2.goto(`${h().baseUrl}/entry`);
    await login(p2, 'nobody_anywhere', 'Nobody_2026', { goto: false, expectSuccess: false });
    await loginError(p2).waitFor();
    expect((await p2.context().cookies()).find((c) => c.name === 'sw_node')).toBeUndefined();

    // the picker lists the default node and the server's, stores the choice and reloads
    await p2.getByTestId('node-picker').click();
    await p2.getByTestId('node-Asia').click();
    await p2.waitForLoadState('load');
    await expect.poll(async () => decodeURIComponent((await p2.context().cookies()).find((c) => c.name === 'sw_node')?.value ?? '')).toBe(NODE_B);
  }, 180_000);
});
