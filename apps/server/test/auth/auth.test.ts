import { ACCOUNT_STATUS, encodePasswordChange, rc4EncryptHex, sha1Hex, signLogin, type AuthDat, type Envelope } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';

type Env<T = unknown> = Envelope<T>;

describe.each(engines)('sign-in and sessions ($name)', (engine) => {
  let s: TestServer;
  let seq = 0;
  /** A fresh owner account for one test. */
  async function newOwner(password = 'Secret_2026', status?: number) {
    seq += 1;
    const usr = `user_${engine.name}_${seq}`;
    const row = await s.ctx.services.accounts.create({ usr, password, role: 0, status });
    return { usr, password, id: row.id };
  }

  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('answers err 15 for an unknown company key', async () => {
    const u = await newOwner();
    const res = await s.login(u.usr, u.password, { companyKey: 'no-such-key' });
    expect(res).toMatchObject({ err: 15, desc: 'ERR_NOT_FOUND_COMPANY_KEY' });
  });

  it('answers err 261 for an unknown user', async () => {
    const res = await s.login('nobody_here', 'whatever');
    expect(res).toMatchObject({ err: 261, desc: 'ERR_NOT_FOUND_USR' });
  });

  it('answers err 16 for a wrong password', async () => {
    const u = await newOwner();
    const res = await s.login(u.usr, 'wrong-password');
    expect(res).toMatchObject({ err: 16, desc: 'ERR_PASSWORD_VERIF_FAIL' });
    expect(res.dat).toBeUndefined();
  });

  it('answers err 25 for a disabled account, and disabling revokes its tokens', async () => {
    const u = await newOwner();
    const first = await s.login(u.usr, u.password);
    expect(first.err).toBe(0);
    expect((await s.call(first.dat!, 'queryAccountInfo')).err).toBe(0);
    await s.ctx.services.accounts.setStatus(u.id, ACCOUNT_STATUS.DISABLED);
    expect(await s.call(first.dat!, 'queryAccountInfo')).toMatchObject({ err: 10, desc: 'ERR_NO_AUTH' });
    expect(await s.login(u.usr, u.password)).toMatchObject({ err: 25, desc: 'ERR_USR_DISABLED' });
    // Re-enabling does not bring the revoked token back.
    await s.ctx.services.accounts.setStatus(u.id, ACCOUNT_STATUS.ENABLED);
    expect((await s.call(first.dat!, 'queryAccountInfo')).err).toBe(10);
    expect((await s.login(u.usr, u.password)).err).toBe(0);
  });

  it('answers err 27 for a cancelled account', async () => {
    const u = await newOwner('Secret_2026', ACCOUNT_STATUS.CANCELLED);
    expect(await s.login(u.usr, u.password)).toMatchObject({ err: 27, desc: 'ERR_USR_CANCELLED' });
  });

  it('lets a CANCELLING account sign in; logoutVerifiction answers 0 for it and 12 otherwise', async () => {
    const u = await newOwner('Secret_2026', ACCOUNT_STATUS.CANCELLING);
    const res = await s.login(u.usr, u.password);
    expect(res.err).toBe(0);
    expect(await s.call(res.dat!, 'logoutVerifiction')).toEqual({ err: 0, desc: 'ERR_NONE' });
    const v = await newOwner();
    const res2 = await s.login(v.usr, v.password);
    expect(await s.call(res2.dat!, 'logoutVerifiction')).toMatchObject({ err: 12 });
  });

  it('expires tokens after `expire` seconds (err 10)', async () => {
    const u = await newOwner();
    const res = await s.login(u.usr, u.password);
    expect(res.dat!.expire).toBe(604800);
    s.clock.advance(604800 * 1000 - 5000);
    expect((await s.call(res.dat!, 'queryAccountInfo')).err).toBe(0);
    s.clock.advance(10_000);
    expect(await s.call(res.dat!, 'queryAccountInfo')).toMatchObject({ err: 10, desc: 'ERR_NO_AUTH' });
  });

  it('never revokes older tokens on a new sign-in', async () => {
    const u = await newOwner();
    const a = await s.login(u.usr, u.password);
    const b = await s.login(u.usr, u.password);
    expect(a.dat!.token).not.toBe(b.dat!.token);
    expect((await s.call(a.dat!, 'queryAccountInfo')).err).toBe(0);
    expect((await s.call(b.dat!, 'queryAccountInfo')).err).toBe(0);
  });

  it('logout revokes its own token only', async () => {
    const u = await newOwner();
    const a = await s.login(u.usr, u.password);
    const b = await s.login(u.usr, u.password);
    expect(await s.call(a.dat!, 'logout')).toEqual({ err: 0, desc: 'ERR_NONE' });
    expect((await s.call(a.dat!, 'queryAccountInfo')).err).toBe(10);
    expect((await s.call(b.dat!, 'queryAccountInfo')).err).toBe(0);
  });

  it('updateToken rotates token and secret; the old token stops working', async () => {
    const u = await newOwner();
    const a = await s.login(u.usr, u.password);
    const r = await s.call<{ token: string; secret: string; expire: number }>(a.dat!, 'updateToken');
    expect(r.err).toBe(0);
    expect(r.dat!.token).toMatch(/^[0-9a-f]{64}$/);
    expect(r.dat!.secret).toMatch(/^[0-9a-f]{40}$/);
    expect(r.dat!.expire).toBe(604800);
    expect((await s.call(a.dat!, 'queryAccountInfo')).err).toBe(10);
    expect((await s.call(r.dat!, 'queryAccountInfo')).err).toBe(0);
  });

  it('remember-me: isRem gives rem; authByRememberToken rotates it; logout with rem revokes it', async () => {
    const u = await newOwner();
    const a = await s.login(u.usr, u.password, { isRem: true });
    expect(a.err).toBe(0);
    expect(a.dat!.rem).toMatch(/^[0-9a-f]{64}$/);
    expect(a.dat!.remExpire).toBe(604800);
    const noRem = await s.login(u.usr, u.password);
    expect(noRem.dat!.rem).toBeUndefined();

    const byRem = async (rem: string) =>
      (await s.request<Env<AuthDat>>(`/public/?action=authByRememberToken&rem=${rem}&company-key=bnrl_frRFjEz8Mkn&source=1`)).body;
    const b = await byRem(a.dat!.rem!);
    expect(b.err).toBe(0);
    expect(b.dat).toMatchObject({ usr: u.usr, uid: u.id, role: 0, expire: 604800 });
    expect(b.dat!.rem).toMatch(/^[0-9a-f]{64}$/);
    expect(b.dat!.rem).not.toBe(a.dat!.rem);
    expect((await s.call(b.dat!, 'queryAccountInfo')).err).toBe(0);
    // The old remember token is spent.
    expect((await byRem(a.dat!.rem!)).err).toBe(10);
    // Presenting a spent token revoked the chain (theft signal), so the newer one is gone too.
    expect((await byRem(b.dat!.rem!)).err).toBe(10);

    // A fresh chain, revoked by logout with rem.
    const c = await s.login(u.usr, u.password, { isRem: true });
    expect((await s.call(c.dat!, 'logout', { rem: c.dat!.rem! })).err).toBe(0);
    expect((await byRem(c.dat!.rem!)).err).toBe(10);
    expect((await s.call(c.dat!, 'queryAccountInfo')).err).toBe(10);
  });

  it('remember tokens expire after 7 days', async () => {
    const u = await newOwner();
    const a = await s.login(u.usr, u.password, { isRem: true });
    s.clock.advance(604800 * 1000 + 1000);
    const res = await s.request<Env>(`/public/?action=authByRememberToken&rem=${a.dat!.rem}&company-key=bnrl_frRFjEz8Mkn`);
    expect(res.body.err).toBe(10);
  });

  describe('updatePassword', () => {
    /** The vendor's digest-only form (no `newpwdtext`). */
    const newpwd = (oldPwd: string, next: string) => rc4EncryptHex(sha1Hex(oldPwd), sha1Hex(next));

    it('changes the password and revokes the other tokens and remember tokens', async () => {
      const u = await newOwner('Old_pass_1');
      const mine = await s.login(u.usr, u.password);
      const other = await s.login(u.usr, u.password, { isRem: true });
      const res = await s.call(mine.dat!, 'updatePassword', encodePasswordChange('Old_pass_1', 'New_pass_2'));
      expect(res).toEqual({ err: 0, desc: 'ERR_NONE' });
      expect((await s.call(mine.dat!, 'queryAccountInfo')).err).toBe(0);
      expect((await s.call(other.dat!, 'queryAccountInfo')).err).toBe(10);
      const rem = await s.request<Env>(`/public/?action=authByRememberToken&rem=${other.dat!.rem}&company-key=bnrl_frRFjEz8Mkn`);
      expect(rem.body.err).toBe(10);
      expect((await s.login(u.usr, 'Old_pass_1')).err).toBe(16);
      expect((await s.login(u.usr, 'New_pass_2')).err).toBe(0);
    });

    it('answers 16 when the old password is wrong', async () => {
      const u = await newOwner('Old_pass_1');
      const me = await s.login(u.usr, u.password);
      const res = await s.call(me.dat!, 'updatePassword', { newpwd: newpwd('Not_the_old', 'New_pass_2') });
      expect(res).toMatchObject({ err: 16 });
    });

    it('answers 17 for a too simple or unchanged password', async () => {
      const u = await newOwner('Old_pass_1');
      const me = await s.login(u.usr, u.password);
      for (const simple of ['123456', '12345678', 'Old_pass_1']) {
        const res = await s.call(me.dat!, 'updatePassword', encodePasswordChange('Old_pass_1', simple));
        expect(res).toMatchObject({ err: 17, desc: 'ERR_PASSWORD_FORMAT_ERROR' });
      }
      expect((await s.login(u.usr, 'Old_pass_1')).err).toBe(0);
    });
  });

  it('stores no password digest or token in clear', async () => {
    const u = await newOwner('Visible_2026');
    const me = await s.login(u.usr, u.password, { isRem: true });
    const row = await s.ctx.db.selectFrom('accounts').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow();
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(sha1Hex('Visible_2026'));
    const sessions = JSON.stringify(await s.ctx.db.selectFrom('sessions').selectAll().where('account_id', '=', u.id).execute());
    expect(sessions).not.toContain(me.dat!.token);
    expect(sessions).not.toContain(me.dat!.secret);
    const rems = JSON.stringify(await s.ctx.db.selectFrom('remember_tokens').selectAll().where('account_id', '=', u.id).execute());
    expect(rems).not.toContain(me.dat!.rem);
  });

  it('accepts the auth action too, and the synthetic vector of wire-protocol.md §2', async () => {
    expect(signLogin('1700000000000', sha1Hex('demo-pass'), '&action=authSource&usr=demo-user&source=1&company-key=test-company')).toBe(
      'fa0a8ebc67c5fe46ca698620e7d0f9774044cf1e',
    );
  });
});
