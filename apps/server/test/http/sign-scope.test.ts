import {
  createApiClient,
  sha1Hex,
  signCall,
  signLogin,
  WEB_COMPANY_KEY,
  type AuthDat,
  type Envelope,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePairs, engines, startTestServer, type TestServer } from '../harness.js';
import { installTestActions, TEST_ACTIONS, type EchoDat } from '../test-actions.js';

/**
 * Attacker report, finding 1 (wire-protocol.md §4a): parameters outside the signed string,
 * duplicate keys, salts and replays. Every case runs on SQLite and PostgreSQL.
 */
type Env<T = unknown> = Envelope<T>;
type Session = { token: string; secret: string };

const ANNA_DEVICE = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };

let saltSeq = 0;
/** A fresh millisecond salt per call (real time; tests that move the clock pass their own). */
function freshSalt(s: TestServer): string {
  saltSeq += 1;
  return String(s.clock.now() + saltSeq);
}

/** `?sign&salt&token` + raw `before` pairs + the signed tail (+ raw `after` pairs, unsigned). */
function signedUrl(
  session: Session,
  tail: string,
  opts: { salt: string; before?: string; after?: string; base?: string },
): string {
  const sign = signCall(opts.salt, session.secret, session.token, tail);
  const before = opts.before ? `&${opts.before}` : '';
  return `${opts.base ?? '/public/'}?sign=${sign}&salt=${opts.salt}&token=${session.token}${before}${tail}${opts.after ?? ''}`;
}

const uninstall = installTestActions(Object.values(TEST_ACTIONS));
afterAll(uninstall);

describe.each(engines)('sign scope, compatible policy ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;

  beforeAll(async () => {
    s = await startTestServer(engine);
    anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('refuses an encoded duplicate of action outside the sign (no session takeover): err 6', async () => {
    const salt = freshSalt(s);
    const tail = '&action=queryPlantsInfo&source=1';
    const res = await s.request<Env>(signedUrl(anna, tail, { salt, before: '%61ction=updateToken' }));
    expect(res.body).toMatchObject({ err: 6 });
    expect(res.body.dat).toBeUndefined();
    // The session is untouched: the token still works.
    expect((await s.call(anna, 'queryAccountInfo')).err).toBe(0);
    // Also with the encoded key inside the signed tail, and after it.
    const t2 = '&action=queryPlantsInfo&%61ction=updateToken';
    expect((await s.request<Env>(signedUrl(anna, t2, { salt: freshSalt(s) }))).body.err).toBe(6);
    expect(
      (await s.request<Env>(signedUrl(anna, tail, { salt: freshSalt(s), after: '&%61ction=updateToken' }))).body.err,
    ).toBe(6);
  });

  it('refuses a parameter placed before the tail that repeats a signed one: err 6', async () => {
    const tail = '&action=testEchoRead&plantid=1&source=1';
    const res = await s.request<Env>(signedUrl(anna, tail, { salt: freshSalt(s), before: 'plantid=999' }));
    expect(res.body).toMatchObject({ err: 6, desc: 'ERR_FORMAT_ERROR(plantid)' });
    const enc = await s.request<Env>(signedUrl(anna, tail, { salt: freshSalt(s), before: 'plant%69d=999' }));
    expect(enc.body.err).toBe(6);
    // sign, salt and token themselves may not appear twice either.
    const twice = await s.request<Env>(signedUrl(anna, tail, { salt: freshSalt(s), after: `&token=${anna.token}` }));
    expect(twice.body.err).toBe(6);
    // Without the duplicate the signed value is what the handler sees.
    const ok = await s.request<Env<EchoDat>>(signedUrl(anna, tail, { salt: freshSalt(s) }));
    expect(ok.body).toMatchObject({ err: 0, dat: { params: { plantid: '1' } } });
  });

  it('refuses duplicates across URL and form body, inside a body and in multipart fields: err 6', async () => {
    const tail = '&action=testEchoRead&a=1';
    const salt = freshSalt(s);
    const sign = signCall(salt, anna.secret, anna.token, tail);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // action in the URL and (encoded) in the body
    let res = await s.request<Env>(`/public/?sign=${sign}&salt=${salt}&token=${anna.token}${tail}`, {
      method: 'POST',
      headers: form,
      body: '%61ction=updateToken',
    });
    expect(res.body.err).toBe(6);
    // a key twice inside the body
    res = await s.request<Env>('/public/', {
      method: 'POST',
      headers: form,
      body: `sign=${sign}&salt=${salt}&token=${anna.token}${tail}&a=2`,
    });
    expect(res.body.err).toBe(6);
    // multipart field repeating a query key
    const fd = new FormData();
    fd.set('a', '2');
    res = await s.request<Env>(signedUrl(anna, tail, { salt: freshSalt(s) }), { method: 'POST', body: fd });
    expect(res.body).toMatchObject({ err: 6, desc: 'ERR_FORMAT_ERROR(a)' });
    // multipart field repeating the action
    const fd2 = new FormData();
    fd2.set('action', 'updateToken');
    res = await s.request<Env>(signedUrl(anna, tail, { salt: freshSalt(s) }), { method: 'POST', body: fd2 });
    expect(res.body.err).toBe(6);
  });

  it('accepts unsigned parameters before the tail for read actions only', async () => {
    const read = await s.request<Env<EchoDat>>(
      signedUrl(anna, '&action=testEchoRead&source=1', { salt: freshSalt(s), before: 'a=x' }),
    );
    expect(read.body).toMatchObject({ err: 0, dat: { params: { a: 'x' } } });
    const write = await s.request<Env>(
      signedUrl(anna, '&action=testEchoWrite&source=1', { salt: freshSalt(s), before: 'a=x' }),
    );
    expect(write.body).toMatchObject({ err: 4, desc: 'ERR_SIGN(unsigned a)' });
    // Real mutating actions of the catalogue: device tuple before the signed `&action=X&source=1`.
    const before = encodePairs(ANNA_DEVICE).slice(1);
    for (const action of ['focusDevice', 'unfocusDevice', 'updateToken', 'logout']) {
      const res = await s.request<Env>(signedUrl(anna, `&action=${action}&source=1`, { salt: freshSalt(s), before }));
      expect(res.body.err, action).toBe(4);
    }
    // unsigned parameters after the tail cannot be "outside" a rule-2 sign, but a multipart field is
    const fd = new FormData();
    fd.set('a', 'x');
    const mp = await s.request<Env>(signedUrl(anna, '&action=testEchoWrite', { salt: freshSalt(s) }), {
      method: 'POST',
      body: fd,
    });
    expect(mp.body.err).toBe(4);
    // The token still works after all of that (nothing took effect).
    expect((await s.call(anna, 'queryAccountInfo')).err).toBe(0);
  });

  it('refuses a sign-in whose sign leaves a meaningful parameter out (err 4), keeps the short form', async () => {
    const salt = freshSalt(s);
    const short = `&action=authSource&usr=owner_anna&company-key=${WEB_COMPANY_KEY}`;
    const sign = signLogin(salt, sha1Hex('Owner_2026'), short);
    const withRem = await s.request<Env<AuthDat>>(`/public/?sign=${sign}&salt=${salt}${short}&isRem=1`);
    expect(withRem.body.err).toBe(4);
    expect(withRem.body.dat).toBeUndefined();
    const before = await s.request<Env<AuthDat>>(`/public/?sign=${sign}&salt=${salt}&isRem=1${short}`);
    expect(before.body.err).toBe(4);
    const inert = await s.request<Env<AuthDat>>(
      `/public/?sign=${sign}&salt=${salt}${short}&source=1&_app_client_=android&i18n=en_US`,
    );
    expect(inert.body.err).toBe(0);
    expect(inert.body.dat!.rem).toBeUndefined();
  });

  it('refuses a state-changing call whose sign was seen before (err 5), even with a constant salt', async () => {
    const tail = '&action=focusDevice' + encodePairs({ ...ANNA_DEVICE, source: 1 });
    const url = signedUrl(anna, tail, { salt: '12345678' });
    expect((await s.request<Env>(url)).body.err).toBe(0);
    expect((await s.request<Env>(url)).body).toMatchObject({ err: 5, desc: 'ERR_SALT' });
    // the same with the login salt reused
    const t2 = '&action=unfocusDevice' + encodePairs({ ...ANNA_DEVICE, source: 1 });
    const u2 = signedUrl(anna, t2, { salt: '1700000000000' });
    expect((await s.request<Env>(u2)).body.err).toBe(0);
    expect((await s.request<Env>(u2)).body.err).toBe(5);
    // POST form with the same sign as the GET: still the same sign → 5
    const raw = u2.slice(u2.indexOf('?') + 1);
    expect(
      (
        await s.request<Env>('/public/', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: raw,
        })
      ).body.err,
    ).toBe(5);
    // Read actions keep accepting a repeated sign (compatible; REPLAY_PROTECTION=1 refuses those too).
    const read = signedUrl(anna, '&action=queryAccountInfo&source=1', { salt: '12345678' });
    expect((await s.request<Env>(read)).body.err).toBe(0);
    expect((await s.request<Env>(read)).body.err).toBe(0);
  });

  it('accepts the same sign-in URL twice (constant-salt clients log in with one URL)', async () => {
    const tail = `&action=auth&usr=owner_ben&company-key=${WEB_COMPANY_KEY}`;
    const url = `/public/?sign=${signLogin('12345678', sha1Hex('Owner_2026'), tail)}&salt=12345678${tail}`;
    expect((await s.request<Env>(url)).body.err).toBe(0);
    expect((await s.request<Env>(url)).body.err).toBe(0);
  });

  it('refuses a replay on another instance sharing the database, and exactly one of two racing calls wins', async () => {
    const other = await startTestServer(engine, { shareWith: s, seed: false });
    try {
      const tail = '&action=testEchoWrite&a=race';
      const url = signedUrl(anna, tail, { salt: freshSalt(s) });
      const results = await Promise.all([
        s.request<Env>(url),
        other.request<Env>(url),
        s.request<Env>(url),
        other.request<Env>(url),
      ]);
      const errs = results.map((r) => r.body.err).sort();
      expect(errs).toEqual([0, 5, 5, 5]);
      expect((await other.request<Env>(url)).body.err).toBe(5);
    } finally {
      await other.close();
    }
  });

  it('keeps a seen sign through a restart and forgets it after the replay window', async () => {
    const url = signedUrl(anna, '&action=testEchoWrite&a=window', { salt: '12345678' });
    expect((await s.request<Env>(url)).body.err).toBe(0);
    const restarted = await startTestServer(engine, { shareWith: s, seed: false });
    try {
      expect((await restarted.request<Env>(url)).body.err).toBe(5);
      s.clock.advance(s.config.replayWindowMs + 1000);
      expect((await restarted.request<Env>(url)).body.err).toBe(0);
      expect((await restarted.request<Env>(url)).body.err).toBe(5);
    } finally {
      await restarted.close();
    }
  });
});

describe.each(engines)('sign scope, strict policy ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { signPolicy: 'strict' } });
    anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('refuses any unsigned parameter, also for read actions (err 4)', async () => {
    const res = await s.request<Env>(
      signedUrl(anna, '&action=queryAccountInfo&source=1', { salt: freshSalt(s), before: 'uid=1' }),
    );
    expect(res.body.err).toBe(4);
    const fd = new FormData();
    fd.set('a', 'x');
    const mp = await s.request<Env>(signedUrl(anna, '&action=testEchoRead', { salt: freshSalt(s) }), {
      method: 'POST',
      body: fd,
    });
    expect(mp.body.err).toBe(4);
    // the sign-in short form with extra (inert) parameters is refused too
    const salt = freshSalt(s);
    const short = `&action=auth&usr=owner_anna&company-key=${WEB_COMPANY_KEY}`;
    const login = await s.request<Env>(
      `/public/?sign=${signLogin(salt, sha1Hex('Owner_2026'), short)}&salt=${salt}${short}&source=1`,
    );
    expect(login.body.err).toBe(4);
  });

  it('requires a timestamp salt within SALT_WINDOW_MS (err 5); ms and s both accepted', async () => {
    const tail = '&action=queryAccountInfo&source=1';
    const now = s.clock.now();
    const window = s.config.saltWindowMs;
    expect(window).toBe(900000);
    for (const salt of [
      '12345678',
      'abc',
      String(now - window - 5000),
      String(now + window + 5000),
      '1700000000000',
      '',
    ]) {
      expect((await s.request<Env>(signedUrl(anna, tail, { salt }))).body.err, salt).toBe(5);
    }
    expect((await s.request<Env>(signedUrl(anna, tail, { salt: String(now - window + 60000) }))).body.err).toBe(0);
    expect((await s.request<Env>(signedUrl(anna, tail, { salt: String(Math.floor(now / 1000)) }))).body.err).toBe(0);
    // sign-ins too
    const lt = `&action=authSource&usr=owner_anna&company-key=${WEB_COMPANY_KEY}`;
    const old = await s.request<Env>(
      `/public/?sign=${signLogin('12345678', sha1Hex('Owner_2026'), lt)}&salt=12345678${lt}`,
    );
    expect(old.body.err).toBe(5);
  });

  it('never accepts a sign twice, read actions and sign-ins included', async () => {
    const url = signedUrl(anna, '&action=queryAccountInfo&source=1', { salt: freshSalt(s) });
    expect((await s.request<Env>(url)).body.err).toBe(0);
    expect((await s.request<Env>(url)).body.err).toBe(5);
    const salt = freshSalt(s);
    const lt = `&action=authSource&usr=owner_ben&company-key=${WEB_COMPANY_KEY}&isRem=1`;
    const login = `/public/?sign=${signLogin(salt, sha1Hex('Owner_2026'), lt)}&salt=${salt}${lt}`;
    const first = await s.request<Env<AuthDat>>(login);
    expect(first.body.err).toBe(0);
    const again = await s.request<Env<AuthDat>>(login);
    expect(again.body).toMatchObject({ err: 5 });
    expect(again.body.dat).toBeUndefined();
    expect((await s.call(first.body.dat!, 'queryAccountInfo')).err).toBe(0);
    // A sign kept past the replay window stays refused while its salt is still acceptable.
    s.clock.advance(s.config.saltWindowMs - 1000);
    expect((await s.request<Env>(url)).body.err).toBe(5);
  });

  it('serves the protocol client (every parameter signed, fresh ms salts), also for identical calls', async () => {
    const held: { session?: Session } = {};
    const client = createApiClient({
      baseUrl: `${s.url}/public/`,
      companyKey: WEB_COMPANY_KEY,
      getSession: () => held.session,
      getLocale: () => 'en_US',
    });
    held.session = await client.login('owner_anna', 'Owner_2026', { isRem: true });
    const both = await Promise.all([client.call('queryAccountInfo', {}), client.call('queryAccountInfo', {})]);
    expect(both.map((d) => d.usr)).toEqual(['owner_anna', 'owner_anna']);
    await client.call('focusDevice', ANNA_DEVICE);
    await client.call('unfocusDevice', ANNA_DEVICE);
    await client.call('focusDevice', ANNA_DEVICE);
  });
});
