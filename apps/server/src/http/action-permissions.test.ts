import { ACTION_NAMES, catalogue, sha1Hex, signCall, signLogin, type ActionDef } from '@sunwatch/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { createContext } from '../create-context.js';
import { moduleGrant, seedDemo } from '../demo/seed-demo.js';
import { handlers } from '../modules/index.js';
import { Dispatcher } from './dispatcher.js';

/**
 * The catalogue's `access.permission` is enforced on every real action: a sub-administrator
 * without the declared module gets err 11 before parameters are even parsed; north_ops (device +
 * alarm management) passes the check of every device_manag action.
 */
const silent = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  fatal() {},
  trace() {},
  child: () => silent,
  level: 'silent',
};

const signedWith = (permission: string | null) =>
  ACTION_NAMES.filter((n) => {
    const { access } = catalogue[n] as ActionDef;
    return access.auth === 'signed' && access.permission === permission;
  });

describe('declared action permissions, enforced by the dispatcher', () => {
  let ctx: AppContext;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    const config = { ...loadConfig({}), sqlitePath: ':memory:', masterKey: 'ab'.repeat(32) };
    ctx = await createContext(config, silent as unknown as FastifyBaseLogger);
    await seedDemo({ ctx });
    const dealer = (await ctx.repos.accounts.findByUsr('dealer_north'))!;
    // A sub-administrator of dealer_north with alarm management only.
    await ctx.services.accounts.create({
      usr: 'north_alarms',
      password: 'Alarms_2026',
      role: 2,
      parentId: dealer.id,
      adminOf: dealer.id,
      permissions: moduleGrant(['alarm_manag']),
    });
    dispatcher = new Dispatcher(ctx, handlers);
  });
  afterAll(async () => {
    await ctx.database.close();
  });

  async function call(usr: string, pwd: string, action: string): Promise<number> {
    const tail = `&action=auth&usr=${usr}&company-key=bnrl_frRFjEz8Mkn`;
    const s = await ctx.services.auth.login({
      usr,
      companyKey: 'bnrl_frRFjEz8Mkn',
      isRem: false,
      client: { ip: '127.0.0.1', userAgent: 't' },
      verifySign: () => signLogin('1', sha1Hex(pwd), tail) === signLogin('1', sha1Hex(pwd), tail),
    });
    const t = `&action=${action}`;
    const sign = signCall('9', s.secret, s.token, t);
    const params = { sign, salt: '9', token: s.token, action };
    const signed = `sign=${sign}&salt=9&token=${s.token}${t}`;
    try {
      await dispatcher.dispatch(
        { action, params, signed, ip: '1', userAgent: '', locale: 'en_US', files: [] },
        { accountId: null, usr: null },
      );
      return 0;
    } catch (e) {
      return (e as { code: number }).code;
    }
  }

  it('a sub-administrator without device management gets err 11 from every device_manag action', async () => {
    const actions = signedWith('device_manag');
    expect(actions.length).toBeGreaterThan(30);
    for (const action of actions) expect(await call('north_alarms', 'Alarms_2026', action), action).toBe(11);
  });

  it('north_ops (device + alarm management) passes the permission check of every device_manag action', async () => {
    // Actions whose roles exclude distributors (owner-only addCollectorToPlant) answer 11 by role.
    const forRole2 = signedWith('device_manag').filter(
      (n) => (catalogue[n] as ActionDef).access.roles?.includes(2) ?? true,
    );
    for (const action of forRole2) {
      expect(await call('north_ops', 'SubAdmin_2026', action), action).not.toBe(11);
    }
    expect(await call('north_ops', 'SubAdmin_2026', 'webQueryFleetOverview')).toBe(11);
  });

  it('issue 11: the fleet alarm actions need alarm management; a device-only sub-administrator gets 11', async () => {
    const actions = signedWith('alarm_manag');
    expect(actions).toEqual(expect.arrayContaining(['webQueryPlantsWarning', 'ignorePlantWarning', 'addWarningRule']));
    for (const action of actions) expect(await call('north_alarms', 'Alarms_2026', action), action).not.toBe(11);
    await ctx.services.accounts.create({
      usr: 'north_devices',
      password: 'Devices_2026',
      role: 2,
      parentId: (await ctx.repos.accounts.findByUsr('dealer_north'))!.id,
      adminOf: (await ctx.repos.accounts.findByUsr('dealer_north'))!.id,
      permissions: moduleGrant(['device_manag']),
    });
    for (const action of actions) expect(await call('north_devices', 'Devices_2026', action), action).toBe(11);
  });

  it('e-mail push subscriptions (issue 11) need alarm management, which north_alarms holds', async () => {
    expect(signedWith('alarm_manag')).toEqual(
      expect.arrayContaining(['queryEmailPush', 'addEmailPush', 'editEmailPush', 'delEmailPush']),
    );
    expect(await call('north_alarms', 'Alarms_2026', 'queryEmailPush')).not.toBe(11);
  });

  it('the mail queue (issue 11) is the operator\'s: system settings, role 15; a sub-administrator gets 11', async () => {
    expect(signedWith('system_settings')).toEqual(expect.arrayContaining(['queryMailOutbox', 'resendMail']));
    for (const action of ['queryMailOutbox', 'resendMail']) expect(await call('north_alarms', 'Alarms_2026', action), action).toBe(11);
  });

  it('actions declaring no permission stay open to a sub-administrator', async () => {
    for (const action of ['queryAccountInfo', 'updateToken', 'webQueryReportFiles']) {
      expect(await call('north_alarms', 'Alarms_2026', action), action).not.toBe(11);
    }
    expect(signedWith(null).sort()).toEqual(
      ['editAccount', 'logout', 'logoutVerifiction', 'queryAccountInfo', 'updatePassword', 'updateToken', 'sendBindCode', 'bindMobile', 'bindEmail', 'unbindMobile', 'unbindEmail', 'qrScan', 'qrConfirm', 'uploadAvatar', 'webQueryReportFiles', 'queryReportFileUrl', 'delReportFile', 'reportWebEvents'].sort(),
    );
  });
});
