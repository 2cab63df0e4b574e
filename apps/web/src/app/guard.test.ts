import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiCallError, type AccountInfoDat } from '@sunwatch/protocol';
import { encryptValue } from './aes';
import { getCookie, setCookie } from './cookies';
import { resolveNavigation, type GuardDeps } from './guard';
import {
  COOKIE,
  SESSION_STORAGE_KEY,
  getSession,
  homePathFor,
  isNewEdition,
  saveLogin,
  setNewEdition,
  setPermissions,
} from './session';
import { authDat, permissionsOf, resetBrowserState } from '../test/session-fixtures';

const REM = 'a'.repeat(64);
const REM2 = 'b'.repeat(64);

function info(over: Partial<AccountInfoDat> = {}): AccountInfoDat {
  return {
    uid: 7,
    usr: 'someone',
    role: 0,
    mobile: '',
    email: '',
    qname: '',
    photo: '',
    qq: '',
    wx: '',
    cname: '',
    caddr: '',
    ctel: '',
    bomb: false,
    enable: true,
    gts: '',
    desc: '',
    lastAtuhTs: '',
    lastAtuhAddr: '',
    ...over,
  };
}

function deps(handlers: Record<string, (params: Record<string, unknown>) => unknown> = {}) {
  const call = vi.fn(async (name: string, params: Record<string, unknown>) => {
    const h = handlers[name];
    if (!h) throw new ApiCallError(9, 'ERR_NOT_SUPPORTED');
    return h(params);
  });
  return { call: call as unknown as GuardDeps['call'], spy: call };
}

const go = (path: string, d: GuardDeps = deps()) =>
  resolveNavigation(new URL(path, 'http://localhost'), d);

function storeInSessionStorage(token: string, role = 0): void {
  sessionStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({ secret: 's', token, role, pprAuth: '', usr: 'x', uid: 1, isNewEdition: true }),
  );
}

function storeInCookies(token: string, role = 0, flag = true): void {
  const put = (k: keyof typeof COOKIE, v: string) => setCookie(COOKIE[k], encryptValue(v), 3600);
  put('secret', 's');
  put('token', token);
  put('role', String(role));
  put('pprAuth', 'p');
  put('usr', 'cookie_user');
  put('uid', '3');
  if (flag) setCookie(COOKIE.loginFlag, '1', 3600);
}

beforeEach(() => {
  resetBrowserState();
});

describe('open and unknown paths', () => {
  it('sends / to /entry, keeps /entry, /401 and /404 open, sends unknown paths to /404', async () => {
    expect(await go('/')).toEqual({ redirect: '/entry' });
    expect(await go('/entry')).toEqual({ allow: true });
    expect(await go('/401')).toEqual({ allow: true });
    expect(await go('/404')).toEqual({ allow: true });
    expect(await go('/nowhere')).toEqual({ redirect: '/404' });
    expect(await go('/adminNew/nowhere')).toEqual({ redirect: '/404' });
    expect(await go('/general/setting/customize')).toEqual({ redirect: '/404' });
  });
});

describe('session resolution order', () => {
  it('without any session goes to /entry with the wanted path', async () => {
    expect(await go('/adminNew/device?pn=1')).toEqual({ redirect: `/entry?redirect=${encodeURIComponent('/adminNew/device?pn=1')}` });
    expect(await go('/home')).toEqual({ redirect: '/entry?redirect=%2Fhome' });
  });

  it('1. takes secret, token and role from the query and strips them from the address', async () => {
    storeInSessionStorage('from-storage');
    const r = await go('/generalNew/alarm?secret=qs&token=qt&role=0&x=1', deps({ queryAccountInfo: () => info({ usr: 'q' }) }));
    expect(r).toEqual({ redirect: '/generalNew/alarm?x=1' });
    expect(getSession()).toMatchObject({ secret: 'qs', token: 'qt', role: 0, usr: 'q' });
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY)!).token).toBe('qt');
    expect(getCookie(COOKIE.loginFlag)).toBe('1');
  });

  it('2. else session storage (before cookies)', async () => {
    storeInSessionStorage('from-storage');
    storeInCookies('from-cookie');
    expect(await go('/generalNew/alarm')).toEqual({ allow: true });
    expect(getSession()?.token).toBe('from-storage');
  });

  it('3. else the encrypted cookies, only with the login flag', async () => {
    storeInCookies('from-cookie', 0, false);
    expect(await go('/generalNew/alarm')).toEqual({ redirect: '/entry?redirect=%2FgeneralNew%2Falarm' });
    storeInCookies('from-cookie', 0, true);
    expect(await go('/generalNew/alarm')).toEqual({ allow: true });
    expect(getSession()).toMatchObject({ token: 'from-cookie', usr: 'cookie_user', uid: 3 });
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEY)!).token).toBe('from-cookie');
  });

  it('4. else the remember-me token signs in again (and is rotated)', async () => {
    setCookie(COOKIE.remember, REM, 3600);
    const d = deps({ authByRememberToken: (p) => authDat({ token: `tok-for-${String(p.rem)}`, rem: REM2 }) });
    expect(await go('/generalNew/alarm', d)).toEqual({ allow: true });
    expect(d.spy).toHaveBeenCalledWith('authByRememberToken', expect.objectContaining({ rem: REM }));
    expect(getSession()?.token).toBe(`tok-for-${REM}`);
    expect(getCookie(COOKIE.remember)).toBe(REM2);
  });

  it('4. a refused remember token is forgotten and the user goes to /entry', async () => {
    setCookie(COOKIE.remember, REM, 3600);
    const d = deps({
      authByRememberToken: () => {
        throw new ApiCallError(10, 'ERR_AUTH');
      },
    });
    expect(await go('/generalNew/alarm', d)).toEqual({ redirect: '/entry?redirect=%2FgeneralNew%2Falarm' });
    expect(getCookie(COOKIE.remember)).toBeUndefined();
  });

  it('keeps a session already in state without touching storage or the API', async () => {
    saveLogin(authDat(), { remember: false });
    sessionStorage.clear();
    const d = deps();
    expect(await go('/generalNew/home', d)).toEqual({ allow: true });
    expect(d.spy).not.toHaveBeenCalled();
  });
});

describe('areas, roles and editions', () => {
  it('maps /home to the role area home by edition', async () => {
    saveLogin(authDat({ role: 0 }), { remember: false });
    expect(await go('/home')).toEqual({ redirect: '/generalNew/home' });
    expect(await go('/home/anything')).toEqual({ redirect: '/generalNew/home' });
    setNewEdition(false);
    expect(await go('/home')).toEqual({ redirect: '/general/home' });
    saveLogin(authDat({ role: 1 }), { remember: false });
    expect(await go('/home')).toEqual({ redirect: '/admin/home' });
    setNewEdition(true);
    expect(await go('/home')).toEqual({ redirect: '/adminNew/home' });
    saveLogin(authDat({ role: 15 }), { remember: false });
    expect(await go('/home')).toEqual({ redirect: '/adminNewStatr/home' });
  });

  it('homePathFor covers every role', () => {
    const p = (role: 0 | 1 | 2 | 3 | 5 | 15, isNewEdition: boolean) => homePathFor({ role, isNewEdition });
    expect([p(0, true), p(5, true), p(0, false), p(5, false)]).toEqual([
      '/generalNew/home',
      '/generalNew/home',
      '/general/home',
      '/general/home',
    ]);
    expect([p(1, true), p(2, true), p(3, true), p(1, false), p(2, false), p(3, false)]).toEqual([
      '/adminNew/home',
      '/adminNew/home',
      '/adminNew/home',
      '/admin/home',
      '/admin/home',
      '/admin/home',
    ]);
    expect([p(15, true), p(15, false)]).toEqual(['/adminNewStatr/home', '/adminNewStatr/home']);
  });

  it("sends a user opening another role's area to /401", async () => {
    saveLogin(authDat({ role: 0 }), { remember: false });
    expect(await go('/adminNew/home')).toEqual({ redirect: '/401' });
    expect(await go('/admin/home')).toEqual({ redirect: '/401' });
    expect(await go('/adminNewStatr/home')).toEqual({ redirect: '/401' });
    saveLogin(authDat({ role: 15 }), { remember: false });
    expect(await go('/adminNew/home')).toEqual({ redirect: '/401' });
    expect(await go('/general/home')).toEqual({ redirect: '/401' });
    expect(await go('/adminNewStatr/home/KEYList')).toEqual({ allow: true });
    saveLogin(authDat({ role: 3 }), { remember: false });
    expect(await go('/generalNew/home')).toEqual({ redirect: '/401' });
    expect(await go('/admin/setting')).toEqual({ redirect: '/admin/setting/personalBasic' });
  });

  it('sets the new-edition flag on /adminNew and /generalNew, clears it on /admin and /general', async () => {
    saveLogin(authDat({ role: 1 }), { remember: false });
    await go('/admin/home');
    expect(isNewEdition()).toBe(false);
    expect(getSession()?.isNewEdition).toBe(false);
    expect(getCookie(COOKIE.edition)).toBe('0');
    await go('/adminNew/home');
    expect(isNewEdition()).toBe(true);
    expect(getCookie(COOKIE.edition)).toBe('1');
    await go('/general/home'); // a 401 for role 1, but the visit still clears the flag
    expect(isNewEdition()).toBe(false);
    await go('/generalNew/home');
    expect(isNewEdition()).toBe(true);
  });
});

describe('role-2 sub-administrators', () => {
  it('loads the permission lists once and lands by module', async () => {
    saveLogin(authDat({ role: 2, usr: 'north_ops' }), { remember: false });
    const d = deps({
      queryAccountInfo: () =>
        info({ role: 2, usr: 'north_ops', permission: permissionsOf('device_manag', 'device_list', 'alarm_manag') }),
    });
    expect(await go('/home', d)).toEqual({ redirect: '/adminNew/device' });
    expect(getSession()?.permissions?.modules).toEqual(['device_manag', 'alarm_manag']);
    expect(await go('/adminNew/device', d)).toEqual({ allow: true });
    expect(await go('/adminNew/alarm', d)).toEqual({ allow: true });
    expect(await go('/adminNew/project', d)).toEqual({ allow: true });
    expect(await go('/adminNew/personalBasic', d)).toEqual({ allow: true });
    expect(await go('/adminNew/account', d)).toEqual({ redirect: '/401' });
    expect(await go('/adminNew/home', d)).toEqual({ redirect: '/401' });
    expect(await go('/adminNew/setting/firmware', d)).toEqual({ redirect: '/401' });
    expect(await go('/adminNew', d)).toEqual({ redirect: '/adminNew/device' });
    expect(d.spy.mock.calls.filter(([n]) => n === 'queryAccountInfo')).toHaveLength(1);
  });

  it('with overview lands on the area home; with only settings on the setting page', async () => {
    saveLogin(authDat({ role: 2 }), { remember: false });
    setPermissions({ modules: ['overview', 'device_manag'], firstPages: [], secondPages: [], buttons: [] });
    expect(await go('/home')).toEqual({ redirect: '/adminNew/home' });
    setPermissions({ modules: ['system_settings'], firstPages: [], secondPages: [], buttons: [] });
    expect(await go('/home')).toEqual({ redirect: '/adminNew/setting' });
    expect(await go('/adminNew/setting')).toEqual({ redirect: '/adminNew/setting/firmware' });
  });

  it('on the classic edition lands on the matching classic page', async () => {
    saveLogin(authDat({ role: 2 }), { remember: false });
    setPermissions({ modules: ['alarm_manag'], firstPages: [], secondPages: [], buttons: [] });
    setNewEdition(false);
    expect(await go('/home')).toEqual({ redirect: '/admin/alarm' });
    expect(await go('/admin/alarm')).toEqual({ allow: true });
    expect(await go('/admin/device')).toEqual({ redirect: '/401' });
    expect(await go('/admin/setting/personalBasic')).toEqual({ allow: true });
    expect(await go('/admin/setting/firmware')).toEqual({ redirect: '/401' });
    expect(await go('/admin/setting/firmware/strategy')).toEqual({ redirect: '/401' });
  });

  it('opens the classic firmware tabs by the new edition rules: settings, and devices for the cloud upgrade (issue 13)', async () => {
    saveLogin(authDat({ role: 2 }), { remember: false });
    setNewEdition(false);
    setPermissions({ modules: ['system_settings'], firstPages: [], secondPages: [], buttons: [] });
    for (const tab of ['', '/UpgFirmware', '/default', '/strategy'])
      expect(await go(`/admin/setting/firmware${tab}`), tab).toEqual({ allow: true });
    expect(await go('/admin/setting/firmware/upgrade')).toEqual({ redirect: '/401' });
    expect(await go('/adminNew/setting/upgrade')).toEqual({ redirect: '/401' });
    setPermissions({ modules: ['system_settings', 'device_manag'], firstPages: [], secondPages: [], buttons: [] });
    expect(await go('/admin/setting/firmware/upgrade')).toEqual({ allow: true });
    expect(await go('/admin/setting/firmware/unknown')).toEqual({ redirect: '/404' });
    saveLogin(authDat({ role: 1 }), { remember: false });
    expect(await go('/admin/setting/firmware/upgrade')).toEqual({ allow: true });
  });

  it('an err 10 while loading permissions ends the session', async () => {
    saveLogin(authDat({ role: 2 }), { remember: false });
    const d = deps({
      queryAccountInfo: () => {
        throw new ApiCallError(10, 'ERR_AUTH');
      },
    });
    expect(await go('/adminNew/device', d)).toEqual({ redirect: '/entry?redirect=%2FadminNew%2Fdevice' });
    expect(getSession()).toBeUndefined();
  });
});

describe('viewers (read-only, spec §6)', () => {
  it('refuses the pages a viewer can never use, allows her monitoring pages', async () => {
    saveLogin(authDat({ role: 5, usr: 'viewer_cara' }), { remember: false });
    for (const p of [
      '/generalNew/setting/browseAccount',
      '/generalNew/setting/rechargePay',
      '/generalNew/setting/rechargeRecord',
      '/generalNew/setting/collectionFrequencyRecord',
      '/generalNew/setting/datalogger',
      '/generalNew/setting/rate',
      '/generalNew/setting/firmware',
      '/generalNew/setting/helpform',
      '/general/setting/rechargePay',
      '/general/setting/rate',
      '/general/setting/firmware',
    ]) {
      expect(await go(p), p).toEqual({ redirect: '/401' });
    }
    for (const p of [
      '/generalNew/home',
      '/generalNew/alarm',
      '/generalNew/deviceno',
      '/generalNew/project',
      '/generalNew/personalBasic',
      '/generalNew/setting/alarmform',
      '/generalNew/setting/reportexport',
      '/generalNew/setting/reportsubscribe',
      '/general/home',
      '/general/setting/personalBasic',
    ]) {
      expect(await go(p), p).toEqual({ allow: true });
    }
    // a settings node opens her first settings page, not the default she may not open
    expect(await go('/generalNew/setting')).toEqual({ redirect: '/generalNew/setting/alarmform' });
    expect(await go('/general/setting')).toEqual({ redirect: '/general/setting/personalBasic' });
  });

  it('lets the owner open the same pages', async () => {
    saveLogin(authDat({ role: 0 }), { remember: false });
    expect(await go('/generalNew/setting/browseAccount')).toEqual({ allow: true });
    expect(await go('/generalNew/setting/rechargeRecord')).toEqual({ allow: true });
    expect(await go('/general/setting/rechargePay')).toEqual({ allow: true });
    expect(await go('/generalNew/setting')).toEqual({ redirect: '/generalNew/setting/datalogger' });
  });
});
