import { errorMessage, sha1Hex, signCall, signLogin, WEB_COMPANY_KEY, type AuthDat, type Envelope } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';

/** A username where every encoding differs: space, @, :, comma, parentheses, ~, $. */
const TRICKY_USR = 'Anna Smith@home:1,(x)~$';
const TRICKY_PWD = 'p@ss word+1';

const rfc3986 = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/** The six encodings of wire-protocol.md §4: what the client signs and what it puts in the URL. */
const ENCODINGS: Record<string, (v: string) => string> = {
  none: (v) => v,
  percent20: (v) => encodeURIComponent(v),
  plus: (v) => encodeURIComponent(v).replace(/%20/g, '+'),
  qsUnescaped: (v) =>
    rfc3986(v).replace(/%(20|2B|3A|2C|40|24|26|3D|28|29)/g, (m) => decodeURIComponent(m)),
  quotePlus: (v) => rfc3986(v).replace(/%20/g, '+'),
  phpHttpBuildQuery: (v) => rfc3986(v).replace(/%20/g, '+').replace(/~/g, '%7E'),
};

type Env<T = unknown> = Envelope<T>;

describe.each(engines)('wire protocol ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;

  beforeAll(async () => {
    s = await startTestServer(engine);
    await s.ctx.services.accounts.create({ usr: TRICKY_USR, password: TRICKY_PWD, role: 0 });
    await s.ctx.services.accounts.create({ usr: 'vplant', password: 'vplant', role: 0 });
    const res = await s.login('owner_anna', 'Owner_2026');
    expect(res.err).toBe(0);
    anna = res.dat!;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it.each(Object.keys(ENCODINGS))('signs in with the %s encoding', async (name) => {
    const enc = ENCODINGS[name]!;
    const salt = '1700000000000';
    const tail = `&action=authSource&usr=${enc(TRICKY_USR)}&company-key=${enc(WEB_COMPANY_KEY)}&source=1&i18n=en_US`;
    const sign = signLogin(salt, sha1Hex(TRICKY_PWD), tail);
    const res = await s.request<Env<AuthDat>>(`/public/?sign=${sign}&salt=${salt}${tail}`);
    expect(res.body).toMatchObject({ err: 0, desc: 'ERR_NONE' });
    expect(res.body.dat!.usr).toBe(TRICKY_USR);
  });

  it('accepts the vendor test vector', async () => {
    const tail = '&action=auth&usr=vplant&company-key=0123456789ABCDEF';
    expect(sha1Hex('vplant')).toBe('bd19f193c5f9afed25a79761ea2a13a10d6e2c74');
    const res = await s.request<Env<AuthDat>>(`/public/?sign=675bd5418fce7be5e30b920a16a46ce075c90a35&salt=1491967716993${tail}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-eybond-action')).toBe('auth');
    const dat = res.body.dat!;
    expect(Object.keys(dat)).toEqual(['secret', 'expire', 'token', 'role', 'uid', 'usr', 'pprAuth']);
    expect(dat.secret).toMatch(/^[0-9a-f]{40}$/);
    expect(dat.token).toMatch(/^[0-9a-f]{64}$/);
    expect(dat.expire).toBe(604800);
    expect(dat).toMatchObject({ role: 0, usr: 'vplant' });
    expect(Number.isInteger(dat.uid)).toBe(true);
  });

  it('accepts an upper-case sign', async () => {
    const tail = '&action=auth&usr=vplant&company-key=0123456789ABCDEF';
    const res = await s.request<Env>(`/public/?sign=675BD5418FCE7BE5E30B920A16A46CE075C90A35&salt=1491967716993${tail}`);
    expect(res.body.err).toBe(0);
  });

  it('accepts parameters in any order (rule 4 fallback)', async () => {
    const salt = '12345678';
    const pwd = sha1Hex(TRICKY_PWD);
    const usr = encodeURIComponent(TRICKY_USR);
    // sign and salt after the action pairs
    const t1 = `&action=authSource&company-key=${WEB_COMPANY_KEY}&usr=${usr}&source=1`;
    let res = await s.request<Env>(`/public/?${t1.slice(1)}&salt=${salt}&sign=${signLogin(salt, pwd, t1)}`);
    expect(res.body.err).toBe(0);
    // usr before action
    const t2 = `&usr=${usr}&action=authSource&company-key=${WEB_COMPANY_KEY}`;
    res = await s.request<Env>(`/public/?sign=${signLogin(salt, pwd, t2)}&salt=${salt}${t2}`);
    expect(res.body.err).toBe(0);
  });

  it('accepts the short login form with extra app parameters', async () => {
    const salt = String(Date.now());
    const short = '&action=auth&usr=vplant&company-key=0123456789ABCDEF';
    const sign = signLogin(salt, sha1Hex('vplant'), short);
    const res = await s.request<Env>(
      `/public/?sign=${sign}&salt=${salt}${short}&source=1&_app_client_=android&_app_id_=com.demo.test&_app_version_=3.6.2.1`,
    );
    expect(res.body.err).toBe(0);
  });

  it('accepts any salt: ms, s, constant, reused', async () => {
    for (const salt of [String(Date.now()), String(Math.floor(Date.now() / 1000)), '12345678', '12345678']) {
      expect((await s.call(anna, 'queryAccountInfo', {}, { salt })).err).toBe(0);
    }
  });

  it('verifies a sign over `&action=X&source=1` with parameters earlier in the URL', async () => {
    const me = await s.call<{ uid: number }>(anna, 'queryAccountInfo');
    const salt = String(Date.now());
    const tail = '&action=queryAccountInfo&source=1';
    const sign = signCall(salt, anna.secret, anna.token, tail);
    const res = await s.request<Env<{ uid: number; usr: string }>>(
      `/public/?sign=${sign}&salt=${salt}&token=${anna.token}&uid=${me.dat!.uid}&pn=W0000001&devcode=2451${tail}`,
    );
    expect(res.body).toMatchObject({ err: 0, dat: { usr: 'owner_anna' } });
  });

  it('serves /public, /remote and /remote/ the same way', async () => {
    for (const base of ['/public', '/remote/', '/remote']) {
      const salt = String(Date.now());
      const tail = '&action=queryAccountInfo&source=1';
      const sign = signCall(salt, anna.secret, anna.token, tail);
      const res = await s.request<Env>(`${base}?sign=${sign}&salt=${salt}&token=${anna.token}${tail}`);
      expect(res.body.err).toBe(0);
      expect(res.headers.get('x-eybond-action')).toBe('queryAccountInfo');
    }
  });

  it('accepts POST with parameters in the URL', async () => {
    const salt = String(Date.now());
    const tail = '&action=queryAccountInfo&source=1';
    const sign = signCall(salt, anna.secret, anna.token, tail);
    const res = await s.request<Env>(`/public/?sign=${sign}&salt=${salt}&token=${anna.token}${tail}`, { method: 'POST' });
    expect(res.body).toMatchObject({ err: 0, dat: { usr: 'owner_anna' } });
  });

  it('accepts POST with a form-urlencoded body, signed over the raw body', async () => {
    const salt = String(Date.now());
    const tail = `&action=authSource&usr=${ENCODINGS.plus!(TRICKY_USR)}&company-key=${WEB_COMPANY_KEY}&source=1`;
    const sign = signLogin(salt, sha1Hex(TRICKY_PWD), tail);
    const res = await s.request<Env<AuthDat>>('/public/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `sign=${sign}&salt=${salt}${tail}`,
    });
    expect(res.body.err).toBe(0);
    expect(res.body.dat!.usr).toBe(TRICKY_USR);
    expect(res.headers.get('x-eybond-action')).toBe('authSource');

    const t2 = '&action=queryAccountInfo&source=1';
    const s2 = signCall(salt, anna.secret, anna.token, t2);
    const res2 = await s.request<Env>('/public', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `sign=${s2}&salt=${salt}&token=${anna.token}${t2}`,
    });
    expect(res2.body).toMatchObject({ err: 0, dat: { usr: 'owner_anna' } });
  });

  it('accepts multipart with the action in the query', async () => {
    const salt = String(Date.now());
    const tail = '&action=queryAccountInfo&source=1';
    const sign = signCall(salt, anna.secret, anna.token, tail);
    const form = new FormData();
    form.set('note', 'hello');
    const res = await s.request<Env>(`/public/?sign=${sign}&salt=${salt}&token=${anna.token}${tail}`, {
      method: 'POST',
      body: form,
    });
    expect(res.body).toMatchObject({ err: 0, dat: { usr: 'owner_anna' } });
    // A file for an action that declares no upload is refused (apps/server/test/http/uploads.test.ts).
    const withFile = new FormData();
    withFile.set('file', new Blob([Buffer.from('firmware-bytes')]), 'fw.bin');
    const salt2 = String(Date.now() + 1);
    const res2 = await s.request<Env>(
      `/public/?sign=${signCall(salt2, anna.secret, anna.token, tail)}&salt=${salt2}&token=${anna.token}${tail}`,
      { method: 'POST', body: withFile },
    );
    expect(res2.body).toMatchObject({ err: 6, desc: 'ERR_FORMAT_ERROR(file)' });
  });

  it('answers err 4 for a bad sign', async () => {
    const salt = String(Date.now());
    const tail = '&action=queryAccountInfo&source=1';
    const res = await s.request<Env>(`/public/?sign=${'0'.repeat(40)}&salt=${salt}&token=${anna.token}${tail}`);
    expect(res.body).toMatchObject({ err: 4, desc: 'ERR_SIGN' });
    expect(res.body.dat).toBeUndefined();
    expect(typeof res.body.msg).toBe('string');
    // Signed over different bytes than were sent (re-encoded value) → 4 as well.
    const good = signCall(salt, anna.secret, anna.token, '&action=queryAccountInfo&source=1&x=a b');
    const res2 = await s.request<Env>(`/public/?sign=${good}&salt=${salt}&token=${anna.token}&action=queryAccountInfo&source=1&x=a%2Bb`);
    expect(res2.body.err).toBe(4);
  });

  it('answers err 9 for an unknown action, with the header and a localised msg', async () => {
    const res = await s.request<Env>('/public/?action=noSuchAction&i18n=en_US');
    expect(res.body).toMatchObject({ err: 9, desc: 'ERR_UNSUPPORTED' });
    expect(res.headers.get('x-eybond-action')).toBe('noSuchAction');
    expect(res.body.msg).toBeTruthy();
    const missing = await s.request<Env>('/public/');
    expect(missing.body.err).toBe(9);
  });

  it('answers err 6 naming the field for a bad parameter', async () => {
    const res = await s.call(anna, 'queryAccountInfo', { uid: 'abc' });
    expect(res).toMatchObject({ err: 6, desc: 'ERR_FORMAT_ERROR(uid)' });
    const res2 = await s.call(anna, 'updatePassword', { newpwd: 'xyz' });
    expect(res2).toMatchObject({ err: 6, desc: 'ERR_FORMAT_ERROR(newpwd)' });
    const salt = String(Date.now());
    const tail = `&action=authSource&company-key=${WEB_COMPANY_KEY}`;
    const res3 = await s.request<Env>(`/public/?sign=${signLogin(salt, sha1Hex('x'), tail)}&salt=${salt}${tail}`);
    expect(res3.body).toMatchObject({ err: 6, desc: 'ERR_FORMAT_ERROR(usr)' });
  });

  it('answers err 10 ERR_NO_AUTH without a token or with an unknown one', async () => {
    const res = await s.request<Env>('/public/?action=queryAccountInfo&source=1');
    expect(res.body).toMatchObject({ err: 10, desc: 'ERR_NO_AUTH' });
    const res2 = await s.call({ token: 'f'.repeat(64), secret: 'x' }, 'queryAccountInfo');
    expect(res2).toMatchObject({ err: 10, desc: 'ERR_NO_AUTH' });
  });

  it('localises msg from i18n, lang or Accept-Language', async () => {
    const de = await s.request<Env>('/public/?action=noSuchAction&i18n=de_DE');
    const fr = await s.request<Env>('/public/?action=noSuchAction&lang=fr_FR');
    const zh = await s.request<Env>('/public/?action=noSuchAction', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    const en = await s.request<Env>('/public/?action=noSuchAction');
    expect(de.body.msg).toBe(errorMessage(9, 'de_DE'));
    expect(fr.body.msg).toBe(errorMessage(9, 'fr_FR'));
    expect(zh.body.msg).toBe(errorMessage(9, 'zh_CN'));
    expect(en.body.msg).toBe(errorMessage(9, 'en_US'));
    expect(new Set([de, fr, zh, en].map((r) => r.body.msg)).size).toBe(4);
  });
});

describe.each(engines)('replay protection when enabled ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, { config: { replayProtection: true } });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('refuses the same signed request twice with err 5', async () => {
    const login = await s.login('owner_ben', 'Owner_2026');
    const first = await s.call(login.dat!, 'queryAccountInfo', {}, { salt: '555' });
    expect(first.err).toBe(0);
    const again = await s.call(login.dat!, 'queryAccountInfo', {}, { salt: '555' });
    expect(again).toMatchObject({ err: 5, desc: 'ERR_SALT' });
  });
});
