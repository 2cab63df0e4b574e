import { rc4EncryptHex, sha1Hex, type AuthDat, type PlantBrowserRow } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEALER_STOCK } from '../../src/demo/seed-distribution.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { idOf, prepare, repo } from './helpers.js';

type Browsers = { total: number; browser: PlantBrowserRow[] };

/** pwd and pwdtext of a sub-account password, encrypted with the caller's login secret. */
function pwdParams(secret: string, password: string): { pwd: string; pwdtext: string } {
  return { pwd: rc4EncryptHex(secret, sha1Hex(password)), pwdtext: rc4EncryptHex(secret, password) };
}

describe.each(engines)('viewer sub-accounts ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const as = (usr: string) => sessions.get(usr)!;
  let home = 0; // owner_anna's demo plant
  let barn = 0; // a second plant of owner_anna
  let benPlant = 0;
  let dan = 0;

  beforeAll(async () => {
    s = await startTestServer(engine);
    sessions = await prepare(s);
    const anna = await idOf(s, 'owner_anna');
    home = (await s.ctx.db.selectFrom('projects').select('id').where('owner_id', '=', anna).executeTakeFirstOrThrow()).id;
    // A second plant of owner_anna, with a datalogger of the demo stock.
    const r = repo(s);
    const stock = (await r.byPns([DEMO_DEALER_STOCK[4]!])).get(DEMO_DEALER_STOCK[4]!)!;
    barn = await r.createDefaultPlant(anna, stock);
    await s.ctx.db.updateTable('projects').set({ is_default: 0, name: 'Anna Barn' }).where('id', '=', barn).execute();
    await r.bindToOwner(stock.id, anna, barn);
    benPlant = (await s.ctx.db.selectFrom('projects').select('id').where('owner_id', '=', await idOf(s, 'owner_ben')).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await s?.stop();
  });

  const add = (usr: string, params: Record<string, string | number>, password = 'Viewer_Dan1') =>
    s.call<{ uid: number }>(as(usr), 'addPlantBrowser', { ...pwdParams(as(usr).secret, password), ...params });

  it('an owner creates a viewer of one of its two plants; the viewer sees exactly that plant, read-only', async () => {
    const res = await add('owner_anna', {
      usr: 'viewer_dan',
      email: 'dan@example.com',
      mobile: '01701234567',
      desc: 'Neighbour',
      pid: String(home),
    });
    expect(res.err).toBe(0);
    dan = res.dat!.uid;
    const row = (await s.ctx.repos.accounts.findById(dan))!;
    expect(row).toMatchObject({ role: 5, parent_id: await idOf(s, 'owner_anna'), description: 'Neighbour', status: 0 });

    const login = await s.login('viewer_dan', 'Viewer_Dan1');
    expect(login.err).toBe(0);
    expect(login.dat!.role).toBe(5);
    const plants = await s.call<{ plant: Array<{ pid: number }> }>(login.dat!, 'webQueryPlants', { page: 0, pagesize: 50 });
    expect(plants.dat!.plant.map((p) => p.pid)).toEqual([home]);
    const devs = await s.call<{ device: Array<{ pid: number; pn: string }> }>(login.dat!, 'webQueryDeviceEs', { page: 0, pagesize: 50 });
    expect(devs.dat!.device.length).toBeGreaterThan(0);
    expect(devs.dat!.device.every((d) => d.pid === home && d.pn === 'SWNORTH0000001')).toBe(true);
    // The other plant, its datalogger and another tenant's plant answer as missing.
    expect((await s.call(login.dat!, 'queryPlantInfo', { plantid: barn })).err).toBe(260);
    expect((await s.call(login.dat!, 'queryCollectorInfo', { pn: DEMO_DEALER_STOCK[4]! })).err).toBe(257);
    expect((await s.call(login.dat!, 'queryPlantInfo', { plantid: benPlant })).err).toBe(260);
    // Read-only: account writes are refused (11).
    expect((await s.call(login.dat!, 'addPlantBrowser', { ...pwdParams(login.dat!.secret, 'Another_1'), usr: 'viewer_x' })).err).toBe(11);
    expect((await s.call(login.dat!, 'editPlantBrowser', { uid: dan, pid: String(barn) })).err).toBe(11);
    expect((await s.call(login.dat!, 'distributeCollector', { uid: dan, pn: 'SWNORTH0000001' })).err).toBe(11);
  });

  it('lists the caller\'s viewers with their plant names and contact data', async () => {
    const res = await s.call<Browsers>(as('owner_anna'), 'queryPlantBrowsers', { page: 0, pagesize: 50 });
    expect(res.err).toBe(0);
    expect(res.dat!.browser.map((b) => b.usr).sort()).toEqual(['viewer_cara', 'viewer_dan']);
    const d = res.dat!.browser.find((b) => b.usr === 'viewer_dan')!;
    expect(d).toMatchObject({
      uid: dan,
      plant: ['Anna Elbblick Home'],
      pid: [home],
      email: 'dan@example.com',
      mobile: '01701234567',
      desc: 'Neighbour',
      enable: true,
    });
    expect(d.gts).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const fuzzy = await s.call<Browsers>(as('owner_anna'), 'queryPlantBrowsers', { usr: 'DAN', page: 0, pagesize: 50 });
    expect(fuzzy.dat!.browser.map((b) => b.usr)).toEqual(['viewer_dan']);
    // Another owner has none of them.
    const ben = await s.call<Browsers>(as('owner_ben'), 'queryPlantBrowsers', { page: 0, pagesize: 50 });
    expect(ben.dat).toMatchObject({ total: 0, browser: [] });
  });

  it('refuses a foreign or missing plant (260) and writes nothing', async () => {
    for (const pid of [`${home},${benPlant}`, '999999']) {
      const res = await add('owner_anna', { usr: 'viewer_eve', pid });
      expect(res.err, pid).toBe(260);
      expect(await s.ctx.repos.accounts.findByUsr('viewer_eve')).toBeUndefined();
    }
    // An administrator may share plants in its reach.
    const north = await add('dealer_north', { usr: 'viewer_north', pid: String(home) });
    expect(north.err).toBe(0);
    expect((await add('dealer_north', { usr: 'viewer_north2', pid: String(benPlant) })).err).toBe(260);
  });

  it('checks usernames, duplicates (24), contact formats and the password envelope', async () => {
    expect((await add('owner_anna', { usr: 'owner_ben' })).err).toBe(24);
    expect((await add('owner_anna', { usr: 'x' })).err).toBe(21);
    expect((await add('owner_anna', { usr: 'viewer_fay', email: 'not-an-email' })).err).toBe(20);
    expect((await add('owner_anna', { usr: 'viewer_fay', mobile: 'abc' })).err).toBe(19);
    // pwd encrypted with another key than the caller's secret
    const wrong = { pwd: rc4EncryptHex('not the secret', sha1Hex('Viewer_Fay1')), pwdtext: rc4EncryptHex('not the secret', 'Viewer_Fay1') };
    expect((await s.call(as('owner_anna'), 'addPlantBrowser', { usr: 'viewer_fay', ...wrong })).err).toBe(16);
    expect((await add('owner_anna', { usr: 'viewer_fay' }, '123456')).err).toBe(17);
    expect(await s.ctx.repos.accounts.findByUsr('viewer_fay')).toBeUndefined();
  });

  it('edits plants, contact data and password; omitted fields stay, empty ones are cleared', async () => {
    const res = await s.call(as('owner_anna'), 'editPlantBrowser', { uid: dan, pid: String(barn), email: '', desc: 'Barn only' });
    expect(res.err).toBe(0);
    const row = (await s.ctx.repos.accounts.findById(dan))!;
    expect(row).toMatchObject({ email: '', mobile: '01701234567', description: 'Barn only' });
    const login = await s.login('viewer_dan', 'Viewer_Dan1');
    const plants = await s.call<{ plant: Array<{ pid: number }> }>(login.dat!, 'webQueryPlants', { page: 0, pagesize: 50 });
    expect(plants.dat!.plant.map((p) => p.pid)).toEqual([barn]);
    expect((await s.call(as('owner_anna'), 'editPlantBrowser', { uid: dan, pid: String(benPlant) })).err).toBe(260);
    // a new password ends the viewer's sessions; the new one signs in
    const pw = await s.call(as('owner_anna'), 'editPlantBrowser', { uid: dan, ...pwdParams(as('owner_anna').secret, 'Viewer_Dan2') });
    expect(pw.err).toBe(0);
    expect((await s.call(login.dat!, 'webQueryPlants', { page: 0, pagesize: 50 })).err).toBe(10);
    expect((await s.login('viewer_dan', 'Viewer_Dan1')).err).not.toBe(0);
    expect((await s.login('viewer_dan', 'Viewer_Dan2')).err).toBe(0);
    const audit = await s.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'editPlantBrowser').execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
    expect(audit.map((a) => `${a.before ?? ''}${a.after ?? ''}`).join()).not.toContain('Viewer_Dan2');
  });

  it('a disabled viewer is signed out at once and cannot sign in; enabling lets it back', async () => {
    const login = await s.login('viewer_dan', 'Viewer_Dan2');
    expect(login.err).toBe(0);
    expect((await s.call(as('owner_anna'), 'editPlantBrowser', { uid: dan, enable: 'false' })).err).toBe(0);
    expect((await s.call(login.dat!, 'webQueryPlants', { page: 0, pagesize: 50 })).err).toBe(10);
    expect((await s.login('viewer_dan', 'Viewer_Dan2')).err).toBe(25);
    const list = await s.call<Browsers>(as('owner_anna'), 'queryPlantBrowsers', { usr: 'viewer_dan', page: 0, pagesize: 5 });
    expect(list.dat!.browser[0]!.enable).toBe(false);
    expect((await s.call(as('owner_anna'), 'editPlantBrowser', { uid: dan, enable: 'true' })).err).toBe(0);
    expect((await s.login('viewer_dan', 'Viewer_Dan2')).err).toBe(0);
    // created disabled
    const off = await add('owner_anna', { usr: 'viewer_off', enable: 'false' }, 'Viewer_Off1');
    expect(off.err).toBe(0);
    expect((await s.login('viewer_off', 'Viewer_Off1')).err).toBe(25);
  });

  it('deletes only viewers in reach: 11 out of reach, 523 for a non-viewer', async () => {
    expect((await s.call(as('owner_ben'), 'delPlantBrowser', { uid: dan })).err).toBe(11);
    expect((await s.call(as('owner_ben'), 'editPlantBrowser', { uid: dan, desc: 'x' })).err).toBe(11);
    expect((await s.call(as('owner_anna'), 'delPlantBrowser', { uid: 999999 })).err).toBe(11);
    expect((await s.call(as('dealer_north'), 'delPlantBrowser', { uid: await idOf(s, 'owner_anna') })).err).toBe(523);
    expect((await s.call(as('dealer_north'), 'editPlantBrowser', { uid: await idOf(s, 'owner_anna'), desc: 'x' })).err).toBe(523);
    const login = await s.login('viewer_dan', 'Viewer_Dan2');
    expect((await s.call(as('owner_anna'), 'delPlantBrowser', { uid: dan })).err).toBe(0);
    expect(await s.ctx.repos.accounts.findById(dan)).toBeUndefined();
    expect(await s.ctx.db.selectFrom('viewer_projects').selectAll().where('viewer_id', '=', dan).execute()).toEqual([]);
    expect((await s.call(login.dat!, 'webQueryPlants', { page: 0, pagesize: 50 })).err).toBe(10);
    expect((await s.login('viewer_dan', 'Viewer_Dan2')).err).not.toBe(0);
    const list = await s.call<Browsers>(as('owner_anna'), 'queryPlantBrowsers', { page: 0, pagesize: 50 });
    expect(list.dat!.browser.map((b) => b.usr)).not.toContain('viewer_dan');
  });
});
