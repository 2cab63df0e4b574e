import { actionParams, defineAction, result, sha1Hex, signCall, signLogin, type ActionDef } from '@sunwatch/protocol';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { createContext } from '../create-context.js';
import { seedDemo } from '../demo/seed-demo.js';
import { Dispatcher } from './dispatcher.js';
import type { HandlerMap } from './registry.js';

const silent = { info() {}, warn() {}, error() {}, debug() {}, fatal() {}, trace() {}, child: () => silent, level: 'silent' };

/** Synthetic actions with access rules, to check that the dispatcher enforces them centrally. */
const actions: Record<string, ActionDef> = {
  makerOnly: defineAction({
    name: 'makerOnly',
    summary: 'test',
    params: actionParams({ n: z.coerce.number().int() }),
    access: { auth: 'signed', roles: [1, 2], permission: null },
    mutates: false,
    result: result<string>(),
  }),
  needsAccounts: defineAction({
    name: 'needsAccounts',
    summary: 'test',
    params: actionParams({}),
    access: { auth: 'signed', roles: [1, 2, 3], permission: 'account_manag' },
    mutates: false,
    result: result<string>(),
  }),
};

describe('Dispatcher access rules', () => {
  let ctx: AppContext;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    const config = { ...loadConfig({}), sqlitePath: ':memory:', masterKey: 'cd'.repeat(32) };
    ctx = await createContext(config, silent as unknown as FastifyBaseLogger);
    await seedDemo({ ctx });
    const handlers = {
      makerOnly: () => Promise.resolve('ok'),
      needsAccounts: () => Promise.resolve('ok'),
    } as unknown as HandlerMap;
    dispatcher = new Dispatcher(ctx, handlers, (name) => actions[name]);
  });
  afterAll(async () => {
    await ctx.database.close();
  });

  async function session(usr: string, pwd: string) {
    const tail = `&action=auth&usr=${usr}&company-key=bnrl_frRFjEz8Mkn`;
    return ctx.services.auth.login({
      usr,
      companyKey: 'bnrl_frRFjEz8Mkn',
      isRem: false,
      client: { ip: '127.0.0.1', userAgent: 't' },
      verifySign: () => signLogin('1', sha1Hex(pwd), tail) === signLogin('1', sha1Hex(pwd), tail),
    });
  }

  async function call(usr: string, pwd: string, action: string, extra = '') {
    const s = await session(usr, pwd);
    const tail = `&action=${action}${extra}`;
    const signed = `sign=${signCall('9', s.secret, s.token, tail)}&salt=9&token=${s.token}${tail}`;
    const params: Record<string, string> = {
      sign: signCall('9', s.secret, s.token, tail),
      salt: '9',
      token: s.token,
      action,
      ...Object.fromEntries(new URLSearchParams(extra.slice(1))),
    };
    const trace = { accountId: null, usr: null };
    try {
      return { err: 0, dat: await dispatcher.dispatch({ action, params, signed, ip: '1', userAgent: '', locale: 'en_US', files: [] }, trace) };
    } catch (e) {
      return { err: (e as { code: number }).code, desc: (e as Error).message };
    }
  }

  it('refuses roles the action does not allow with err 11', async () => {
    expect(await call('sunmaker', 'Maker_2026', 'makerOnly', '&n=1')).toEqual({ err: 0, dat: 'ok' });
    expect((await call('owner_anna', 'Owner_2026', 'makerOnly', '&n=1')).err).toBe(11);
    expect((await call('operator', 'Operator_2026', 'makerOnly', '&n=1')).err).toBe(11);
  });

  it('refuses a sub-administrator without the permission name with err 11', async () => {
    expect((await call('dealer_north', 'Dealer_2026', 'needsAccounts')).err).toBe(0);
    expect((await call('north_ops', 'SubAdmin_2026', 'needsAccounts')).err).toBe(11);
  });

  it('checks access before the parameters', async () => {
    expect((await call('owner_anna', 'Owner_2026', 'makerOnly', '&n=x')).err).toBe(11);
    expect(await call('sunmaker', 'Maker_2026', 'makerOnly', '&n=x')).toMatchObject({ err: 6, desc: 'ERR_FORMAT_ERROR(n)' });
  });

  it('answers 9 for actions without a definition', async () => {
    expect((await call('sunmaker', 'Maker_2026', 'nothing')).err).toBe(9);
  });
});
