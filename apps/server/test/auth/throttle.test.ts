import { errorMessage, type Envelope } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshIp, startTestServer, type TestServer } from '../harness.js';

const LIMITS = {
  windowMs: 15 * 60_000,
  accountAddressLimit: 5,
  addressLimit: 20,
  accountLimit: 6,
  baseDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
};

describe.each(engines)('login throttling ($name)', (engine) => {
  let s: TestServer;
  let seq = 0;
  async function newOwner() {
    seq += 1;
    const usr = `throttled_${seq}`;
    const row = await s.ctx.services.accounts.create({ usr, password: 'Right_2026', role: 0 });
    return { usr, id: row.id };
  }
  const expectThrottled = (res: Envelope<unknown>, seconds: number) => {
    expect(res).toMatchObject({ err: 13, desc: 'ERR_OVER_LIMITED' });
    expect(res.dat).toBeUndefined();
    expect(res.msg).toContain(String(seconds));
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { loginThrottle: LIMITS } });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('blocks an address for an account after 5 failures, with a growing delay', async () => {
    const u = await newOwner();
    const ip = freshIp();
    // A known address, so that the per-account rule (tested below) stays out of the way.
    expect((await s.login(u.usr, 'Right_2026', { ip })).err).toBe(0);
    for (let i = 0; i < 5; i++) expect((await s.login(u.usr, 'wrong', { ip })).err).toBe(16);
    // Even the right password is refused now, with the seconds to wait in the message.
    expectThrottled(await s.login(u.usr, 'Right_2026', { ip }), 60);
    // Another address is not affected.
    expect((await s.login(u.usr, 'Right_2026', { ip: freshIp() })).err).toBe(0);
    s.clock.advance(61_000);
    // Blocked again after the next 5 failures, for twice as long.
    for (let i = 0; i < 5; i++) expect((await s.login(u.usr, 'wrong', { ip })).err).toBe(16);
    expectThrottled(await s.login(u.usr, 'Right_2026', { ip }), 120);
    s.clock.advance(121_000);
    // A successful sign-in clears the pair's counter.
    expect((await s.login(u.usr, 'Right_2026', { ip })).err).toBe(0);
    for (let i = 0; i < 4; i++) expect((await s.login(u.usr, 'wrong', { ip })).err).toBe(16);
    expect((await s.login(u.usr, 'Right_2026', { ip })).err).toBe(0);
  });

  it('localises the throttle message', async () => {
    const u = await newOwner();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) await s.login(u.usr, 'wrong', { ip });
    const res = (await s.request<Envelope<unknown>>(`/public/?action=authSource&usr=${u.usr}&company-key=bnrl_frRFjEz8Mkn&sign=${'0'.repeat(40)}&salt=1&i18n=de_DE`, { ip })).body;
    expectThrottled(res, 60);
    expect(res.msg).toBe(errorMessage(13, 'de_DE', 'general', { seconds: 60 }, 'special.loginThrottled'));
    expect(res.msg).not.toBe(errorMessage(13, 'de_DE'));
  });

  it('blocks an address after too many failures across accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMITS.addressLimit; i++) {
      const res = await s.login(`ghost_${i}`, 'wrong', { ip });
      expect(res.err).toBe(261);
    }
    const u = await newOwner();
    expectThrottled(await s.login(u.usr, 'Right_2026', { ip }), 60);
    expect((await s.login(u.usr, 'Right_2026', { ip: freshIp() })).err).toBe(0);
  });

  it('after many failures on an account, refuses new addresses but lets the owner in from a known one', async () => {
    const u = await newOwner();
    const home = freshIp();
    expect((await s.login(u.usr, 'Right_2026', { ip: home })).err).toBe(0);
    // A distributed attack: one failure each from many addresses.
    for (let i = 0; i < LIMITS.accountLimit; i++) expect((await s.login(u.usr, 'guess' + i, { ip: freshIp() })).err).toBe(16);
    // A brand-new address is refused even with the right password…
    const res = await s.login(u.usr, 'Right_2026', { ip: freshIp() });
    expect(res).toMatchObject({ err: 13, desc: 'ERR_OVER_LIMITED' });
    // …while the owner, from an address that signed in before, still gets in.
    expect((await s.login(u.usr, 'Right_2026', { ip: home })).err).toBe(0);
    // Once the window has passed, new addresses may try again.
    s.clock.advance(LIMITS.windowMs + 1000);
    expect((await s.login(u.usr, 'Right_2026', { ip: freshIp() })).err).toBe(0);
  });

  it('holds across instances sharing the database', async () => {
    const other = await startTestServer(engine, { shareWith: s, seed: false, config: { loginThrottle: LIMITS } });
    try {
      const u = await newOwner();
      const ip = freshIp();
      expect((await s.login(u.usr, 'Right_2026', { ip })).err).toBe(0);
      for (let i = 0; i < 5; i++) {
        const instance = i % 2 === 0 ? s : other;
        expect((await instance.login(u.usr, 'wrong', { ip })).err).toBe(16);
      }
      expect((await other.login(u.usr, 'Right_2026', { ip })).err).toBe(13);
      expect((await s.login(u.usr, 'Right_2026', { ip })).err).toBe(13);
      // Sessions are shared too: a token from one instance works on the other.
      const session = await s.login(u.usr, 'Right_2026', { ip: freshIp() });
      expect((await other.call(session.dat!, 'queryAccountInfo')).err).toBe(0);
    } finally {
      await other.stop();
    }
  });

  it('keeps its counters in the database', async () => {
    const u = await newOwner();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) await s.login(u.usr, 'wrong', { ip });
    const rows = await s.ctx.db.selectFrom('login_throttle').selectAll().where('key', 'like', `%:${u.id}:%`).execute();
    expect(rows.length).toBe(1);
    expect(rows[0]!.blocked_until).toBeGreaterThan(s.clock.now());
  });
});
