import { encodePasswordChange, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AUTH_CACHE } from '../../src/modules/auth/auth-cache.js';
import { ACCOUNT_ROW_COLUMNS, ACCOUNT_ROW_EPOCH_EXCLUDED } from '../../src/db/migrations/0049-account-row-epoch.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

/**
 * Issue 16: signed calls are authenticated from a per-instance session cache. These tests run
 * with the production settings (the harness otherwise reads the epoch on every call) on two
 * instances of one database, and fail if the cache ever serves a session that was revoked, of a
 * disabled account, or from before a password change.
 */
describe.each(engines)('session cache ($name)', (engine) => {
  let s: TestServer;
  let s2: TestServer;
  let seq = 0;
  const config = { authCache: DEFAULT_AUTH_CACHE };
  const bound = DEFAULT_AUTH_CACHE.checkMs;

  async function newOwner(password = 'Cache_2026') {
    seq += 1;
    const usr = `cache_${engine.name}_${seq}`;
    const row = await s.ctx.services.accounts.create({ usr, password, role: 0 });
    return { usr, password, id: row.id };
  }
  async function signIn(server: TestServer, usr: string, password: string): Promise<AuthDat> {
    const res = await server.login(usr, password);
    expect(res.err).toBe(0);
    return res.dat!;
  }
  const info = (server: TestServer, session: AuthDat) => server.call(session, 'queryAccountInfo');
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    s = await startTestServer(engine, { config });
    s2 = await startTestServer(engine, { shareWith: s, seed: false, config });
  });
  afterAll(async () => {
    await s2?.stop();
    await s?.stop();
  });

  it('serves repeated calls from the cache; logout and updateToken refuse the old token at once', async () => {
    const u = await newOwner();
    const a = await signIn(s, u.usr, u.password);
    const before = s.ctx.services.auth.cache!.size;
    expect((await info(s, a)).err).toBe(0);
    expect(s.ctx.services.auth.cache!.size).toBe(before + 1);
    expect((await info(s, a)).err).toBe(0);

    const b = await signIn(s, u.usr, u.password);
    expect((await info(s, b)).err).toBe(0);
    const refreshed = await s.call<{ token: string; secret: string }>(b, 'updateToken');
    expect(refreshed.err).toBe(0);
    expect(await info(s, b)).toMatchObject({ err: 10 });
    expect((await info(s, { ...b, ...refreshed.dat! })).err).toBe(0);

    expect((await s.call(a, 'logout')).err).toBe(0);
    expect(await info(s, a)).toMatchObject({ err: 10 });
  });

  it('a disabled account is refused at once by the instance that disabled it, and by the other within the bound', async () => {
    const u = await newOwner();
    const operator = await signIn(s, 'operator', 'Operator_2026');
    const here = await signIn(s, u.usr, u.password);
    const there = await signIn(s2, u.usr, u.password);
    expect((await info(s, here)).err).toBe(0);
    expect((await info(s2, there)).err).toBe(0);
    expect((await info(s2, here)).err).toBe(0); // sessions work on either instance
    expect(s2.ctx.services.auth.cache!.size).toBeGreaterThan(0);

    expect((await s.call(operator, 'disableOrEnableAccount', { uid: u.id, enable: 'false' })).err).toBe(0);
    const disabledAt = performance.now();
    expect(await info(s, here)).toMatchObject({ err: 10 });
    expect(await info(s, there)).toMatchObject({ err: 10 });
    // The other instance re-reads the epoch once its last read is older than the bound.
    await sleep(Math.max(0, bound + 20 - (performance.now() - disabledAt)));
    expect(await info(s2, there)).toMatchObject({ err: 10 });
    expect(await info(s2, here)).toMatchObject({ err: 10 });
    expect(await s2.login(u.usr, u.password)).toMatchObject({ err: 25 });
  });

  it('a password change ends the other sessions of the account on both instances', async () => {
    const u = await newOwner('Cache_pass_1');
    const keeper = await signIn(s, u.usr, u.password);
    const other = await signIn(s, u.usr, u.password);
    const remote = await signIn(s2, u.usr, u.password);
    expect((await info(s, other)).err).toBe(0);
    expect((await info(s2, remote)).err).toBe(0);

    const change = encodePasswordChange('Cache_pass_1', 'Cache_pass_2');
    expect((await s.call(keeper, 'updatePassword', change)).err).toBe(0);
    const changedAt = performance.now();
    expect(await info(s, other)).toMatchObject({ err: 10 });
    expect((await info(s, keeper)).err).toBe(0); // the session that changed it stays
    await sleep(Math.max(0, bound + 20 - (performance.now() - changedAt)));
    expect(await info(s2, remote)).toMatchObject({ err: 10 });
  });

  it('a session revoked straight in the database (a script, another process) is refused within the bound', async () => {
    const u = await newOwner();
    const a = await signIn(s, u.usr, u.password);
    expect((await info(s, a)).err).toBe(0);
    expect((await info(s2, a)).err).toBe(0);
    await s.ctx.db.updateTable('sessions').set({ revoked_at: s.clock.now() }).where('account_id', '=', u.id).execute();
    await sleep(bound + 20);
    expect(await info(s, a)).toMatchObject({ err: 10 });
    expect(await info(s2, a)).toMatchObject({ err: 10 });
  });

  it('an account change that is not a revocation (role, tree position) is seen too', async () => {
    const u = await newOwner();
    const a = await signIn(s, u.usr, u.password);
    expect((await info(s, a)).err).toBe(0);
    expect((await info(s2, a)).err).toBe(0);
    const epoch = async () =>
      Number((await s.ctx.db.selectFrom('auth_epoch').select('epoch').executeTakeFirstOrThrow()).epoch);
    const e0 = await epoch();
    // Sign-in bookkeeping does not move the epoch (no cache flush per login) …
    await signIn(s, u.usr, u.password);
    expect(await epoch()).toBe(e0);
    // … a change of what the caller is made of does.
    await s.ctx.db
      .updateTable('accounts')
      .set({ usr: `${u.usr}_renamed` })
      .where('id', '=', u.id)
      .execute();
    expect(await epoch()).toBe(e0 + 1);
    await sleep(bound + 20);
    for (const server of [s, s2]) {
      const after = await info(server, a);
      expect(after.err).toBe(0);
      expect((after.dat as { usr: string }).usr).toBe(`${u.usr}_renamed`);
    }
  });

  it('queryAccountInfo of the caller answers from the row cached with the session, and a profile edit is seen at once here and within the bound there', async () => {
    const u = await newOwner();
    const a = await signIn(s, u.usr, u.password);
    const qname = async (server: TestServer) => {
      const r = await info(server, a);
      expect(r.err).toBe(0);
      return (r.dat as { qname: string; email: string }).qname;
    };
    // The caller's own record comes from the row read with its session: no scoped account read.
    const reads = vi.spyOn(s.ctx.services.accounts, 'accountForReading');
    try {
      await qname(s);
      await qname(s);
      expect(reads).not.toHaveBeenCalled();
      // uid = its own id is the same record; another account's id takes the scoped read (err 11 here).
      expect((await s.call(a, 'queryAccountInfo', { uid: u.id })).err).toBe(0);
      expect(reads).not.toHaveBeenCalled();
      const other = await newOwner();
      expect(await s.call(a, 'queryAccountInfo', { uid: other.id })).toMatchObject({ err: 11 });
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
    await qname(s2);
    // A new session reads its row after its own sign-in wrote the bookkeeping.
    await s.ctx.db.updateTable('accounts').set({ last_login_ip: '203.0.113.77' }).where('id', '=', u.id).execute();
    const b = await signIn(s, u.usr, u.password);
    expect(((await info(s, b)).dat as { lastAtuhAddr: string }).lastAtuhAddr).not.toBe('203.0.113.77');
    expect(((await info(s, b)).dat as { lastAtuhTs: string }).lastAtuhTs).not.toBe('');

    // A profile edit through the API: shown at once by the instance that made it …
    expect((await s.call(a, 'editAccount', { qname: 'Renamed Owner' })).err).toBe(0);
    expect(await qname(s)).toBe('Renamed Owner');
    // … and by the other within the bound (the edit raised the epoch).
    await sleep(bound + 20);
    expect(await qname(s2)).toBe('Renamed Owner');

    // A profile column changed straight in the database (a script): within the bound on both.
    await s.ctx.db.updateTable('accounts').set({ email: `${u.usr}@example.net` }).where('id', '=', u.id).execute();
    await sleep(bound + 20);
    for (const server of [s, s2]) {
      expect(((await info(server, a)).dat as { email: string }).email).toBe(`${u.usr}@example.net`);
    }
  });

  it('every column of accounts but the sign-in bookkeeping raises the epoch (a new column must widen migration 0049)', async () => {
    const columns = (await s.ctx.db.introspection.getTables())
      .find((t) => t.name === 'accounts')!
      .columns.map((c) => c.name);
    const covered = new Set<string>([...ACCOUNT_ROW_COLUMNS, ...ACCOUNT_ROW_EPOCH_EXCLUDED]);
    expect(columns.filter((c) => !covered.has(c))).toEqual([]);
    const u = await newOwner();
    const epoch = async () =>
      Number((await s.ctx.db.selectFrom('auth_epoch').select('epoch').executeTakeFirstOrThrow()).epoch);
    for (const [column, value] of [
      ['qname', 'Q'],
      ['description', 'note'],
      ['data_permission', '[]'],
    ] as const) {
      const e0 = await epoch();
      await s.ctx.db.updateTable('accounts').set({ [column]: value }).where('id', '=', u.id).execute();
      expect(await epoch(), column).toBe(e0 + 1);
    }
    const e0 = await epoch();
    await s.ctx.db.updateTable('accounts').set({ last_login_at: s.clock.now(), last_login_ip: '198.51.100.1' }).where('id', '=', u.id).execute();
    expect(await epoch()).toBe(e0);
  });

  it('writes the action-log row of every cached call, with the secrets redacted', async () => {
    const u = await newOwner();
    const a = await signIn(s, u.usr, u.password);
    for (let i = 0; i < 5; i++) expect((await info(s, a)).err).toBe(0);
    await s.ctx.services.actionLog.flush();
    const rows = await s.ctx.db
      .selectFrom('action_log')
      .select(['action', 'params', 'err'])
      .where('account_id', '=', u.id)
      .where('action', '=', 'queryAccountInfo')
      .execute();
    expect(rows).toHaveLength(5);
    for (const r of rows) {
      const params = JSON.parse(r.params) as Record<string, string>;
      expect(params).toMatchObject({ action: 'queryAccountInfo', sign: '***', salt: '***', token: '***' });
      expect(r.params).not.toContain(a.token);
      expect(r.err).toBe(0);
    }
  });
});
