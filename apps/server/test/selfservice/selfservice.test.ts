import { CODE_LIMITS, CODE_MAX_ATTEMPTS, encodeSelfServicePassword, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDistribution } from '../../src/demo/seed-distribution.js';
import { readPictureCode } from '../../src/modules/selfservice/picture-code.js';
import { FIXED_NOW, encodePairs, engines, freshIp, startTestServer, type TestServer } from '../harness.js';

interface Env<T = unknown> {
  err: number;
  desc?: string;
  msg?: string;
  dat?: T;
}

function readPicture(img: string): string {
  expect(Buffer.from(img.split(',')[1]!, 'base64').toString()).not.toMatch(/<text/);
  return readPictureCode(img);
}

describe.each(engines)('self-service: codes, signup, password retrieval, bind ($name)', (engine) => {
  let s: TestServer;
  const pub = async <T = unknown>(action: string, params: Record<string, string | number>, ip = '10.9.0.1') =>
    (await s.request<Env<T>>(`/public/?action=${action}${encodePairs({ source: 1, ...params })}`, { ip })).body;
  /** The newest code sent to an address, read from the outbox (mail or SMS). */
  const codeFor = async (to: string) => {
    const row = await s.ctx.db
      .selectFrom('mail_queue')
      .selectAll()
      .where('recipient', '=', to)
      .where('kind', 'in', ['code', 'sms'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return { row, code: /\b(\d{6})\b/.exec(row.body_text)![1]! };
  };
  const session = async (usr: string, pwd: string) => {
    const r = await s.login(usr, pwd);
    expect(r.err, usr).toBe(0);
    return { token: r.dat!.token, secret: r.dat!.secret };
  };
  const signup = (usr: string, password: string, extra: Record<string, string>) => {
    const { pwd, pwdtext } = encodeSelfServicePassword(usr, password);
    return { usr, pwd, pwdtext, 'company-key': 'bnrl_frRFjEz8Mkn', country: 'DE', msgType: '0', ...extra };
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    await seedDistribution({ ctx: s.ctx }); // dealer_north's stock: the PNs a new owner signs up with
  }, 60_000);
  afterAll(() => s?.stop());

  it('signup by email: code in the caller\'s language through the outbox, every refusal, then the owner signs in with a plant and its datalogger', async () => {
    const ip = freshIp();
    expect((await pub('sendSmsCodeMobile', { channel: '1', email: 'not-an-email' }, ip)).err).toBe(20);
    expect((await pub('sendSmsCodeMobile', { channel: '1', email: 'DORA@example.com' }, ip)).err).toBe(26);
    const sent = await pub('sendSmsCodeMobile', { channel: '1', email: 'New.Owner@Example.com', msgType: '0', i18n: 'de_DE' }, ip);
    expect(sent.err).toBe(0);
    const { row, code } = await codeFor('new.owner@example.com');
    expect(row).toMatchObject({ kind: 'code', state: 'outbox', locale: 'de_DE', subject: 'Ihr Sunwatch-Bestätigungscode' });
    expect(row.body_text).toContain('5 Minute');
    // the code is stored hashed only
    const stored = await s.ctx.db.selectFrom('verification_codes').selectAll().where('target', '=', 'new.owner@example.com').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.code_hash).not.toContain(code);
    expect((await pub('sendSmsCodeMobile', { channel: '1', email: 'new.owner@example.com' }, ip)).err).toBe(525);

    const base = { email: 'new.owner@example.com', code, sn: 'SWNORTH0000101', channel: '1' };
    const refusals: Array<[Record<string, string>, number]> = [
      [{ ...signup('new_owner', 'Solar_2026', base), 'company-key': 'nope' }, 15],
      [signup('x', 'Solar_2026', base), 21],
      [signup('bad name!', 'Solar_2026', base), 21],
      [signup('owner_anna', 'Solar_2026', base), 519],
      [signup('new_owner', '123456', base), 17],
      [signup('new_owner', 'short', base), 17],
      [{ ...signup('new_owner', 'Solar_2026', base), pwd: 'abcd' }, 16],
      [signup('new_owner', 'Solar_2026', { ...base, email: 'dora@example.com' }), 26],
      [signup('new_owner', 'Solar_2026', { ...base, sn: 'sw-1' }), 259],
      [signup('new_owner', 'Solar_2026', { ...base, sn: 'SWNOPE00000001' }), 257],
      [signup('new_owner', 'Solar_2026', { ...base, sn: 'SWNORTH0000001' }), 772],
      [signup('new_owner', 'Solar_2026', { ...base, code: code === '000000' ? '000001' : '000000' }), 512],
    ];
    for (const [params, err] of refusals) expect((await pub('regBindMailboxUsually', params, ip)).err, JSON.stringify(params)).toBe(err);

    const ok = await pub<{ uid: number; usr: string }>('regBindMailboxUsually', signup('new_owner', 'Solar_2026', base), ip);
    expect(ok.err).toBe(0);
    // the address is now taken, and the code was used up
    expect((await pub('regBindMailboxUsually', signup('new_owner2', 'Solar_2026', base), ip)).err).toBe(26);
    const used = await s.ctx.db.selectFrom('verification_codes').select('used_at').where('target', '=', 'new.owner@example.com').executeTakeFirstOrThrow();
    expect(Number(used.used_at)).toBe(s.clock.now());

    const acc = await s.ctx.repos.accounts.findByUsr('new_owner');
    const dealer = await s.ctx.repos.accounts.findByUsr('dealer_north');
    expect(acc).toMatchObject({ role: 0, email: 'new.owner@example.com', parent_id: dealer!.id });
    const plant = await s.ctx.db.selectFrom('projects').selectAll().where('owner_id', '=', acc!.id).executeTakeFirstOrThrow();
    expect(plant).toMatchObject({ name: 'SWNORTH0000101', is_default: 1, country: 'DE' });
    const dl = await s.ctx.db.selectFrom('dataloggers').selectAll().where('pn', '=', 'SWNORTH0000101').executeTakeFirstOrThrow();
    expect({ owner: dl.owner_id, plant: dl.project_id }).toEqual({ owner: acc!.id, plant: plant.id });
    const audit = await s.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'regBindMailboxUsually').execute();
    expect(audit.map((a) => a.entity)).toEqual(expect.arrayContaining(['account', 'plant']));
    expect(JSON.stringify(audit)).not.toContain(code);

    const me = s.api(await session('new_owner', 'Solar_2026'));
    expect((await me.call('queryAccountInfo', {})).email).toBe('new.owner@example.com');
  });

  it('signup by phone: mainland pattern, SMS in the outbox, a phone code expires after one minute, wrong attempts are limited', async () => {
    const ip = freshIp();
    expect((await pub('sendSmsCodeMobile', { channel: '0', mobile: '23800138000' }, ip)).err).toBe(19);
    expect((await pub('sendSmsCodeMobile', { channel: '0', mobile: '13800138001' }, ip)).err).toBe(18);
    expect((await pub('sendSmsCodeMobile', { channel: '0', mobile: '13912340000', i18n: 'zh_CN' }, ip)).err).toBe(0);
    const first = await codeFor('13912340000');
    expect(first.row).toMatchObject({ kind: 'sms', state: 'outbox' });
    expect(first.row.body_text).toContain('1 分钟');
    s.clock.advance(61_000);
    const base = { mobile: '13912340000', sn: 'SWNORTH0000102' };
    expect((await pub('regBindMobileUsually', signup('phone_owner', 'Phone_2026', { ...base, code: first.code }), ip)).err).toBe(513);

    // expired: a new one may be sent; five wrong entries kill it
    expect((await pub('sendSmsCodeMobile', { channel: '0', mobile: '13912340000' }, ip)).err).toBe(0);
    const second = await codeFor('13912340000');
    const wrong = second.code === '999999' ? '999998' : '999999';
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      expect((await pub('regBindMobileUsually', signup('phone_owner', 'Phone_2026', { ...base, code: wrong }), ip)).err).toBe(512);
    }
    expect((await pub('regBindMobileUsually', signup('phone_owner', 'Phone_2026', { ...base, code: second.code }), ip)).err).toBe(513);

    expect((await pub('sendSmsCodeMobile', { channel: '0', mobile: '13912340000' }, ip)).err).toBe(0);
    const third = await codeFor('13912340000');
    expect((await pub('regBindMobileUsually', signup('phone_owner', 'Phone_2026', { ...base, code: third.code }), ip)).err).toBe(0);
    await session('phone_owner', 'Phone_2026');
  });

  it('sending is limited per address and per IP (524)', async () => {
    const ip = freshIp();
    for (let i = 0; i < CODE_LIMITS.perTargetHour; i++) {
      expect((await pub('sendSmsCodeMobile', { channel: '1', email: 'spam.target@example.com' }, ip)).err).toBe(0);
      s.clock.advance(300_001);
    }
    expect((await pub('sendSmsCodeMobile', { channel: '1', email: 'spam.target@example.com' }, ip)).err).toBe(524);
    s.clock.advance(3_600_000);
    const ip2 = freshIp();
    for (let i = 0; i < CODE_LIMITS.perIpHour; i++) {
      expect((await pub('sendSmsCodeMobile', { channel: '1', email: `spam${i}@example.com` }, ip2)).err).toBe(0);
    }
    const refused = await pub('sendSmsCodeMobile', { channel: '1', email: 'one.more@example.com' }, ip2);
    expect(refused.err).toBe(524);
    expect(refused.msg).toBe('Verification codes are sent frequently, please try again later');
    expect((await pub('sendSmsCodeMobile', { channel: '1', email: 'one.more@example.com' }, freshIp())).err).toBe(0);
  });

  it('password retrieval by email: picture code, 515/514, code confirmation, reset; sessions end; the code is single use', async () => {
    const ip = freshIp();
    const dora = await session('owner_dora', 'Owner_2026');
    const pic = await pub<{ key: string; img: string }>('getPictureCode', {}, ip);
    expect(pic.err).toBe(0);
    const typed = readPicture(pic.dat!.img);
    expect(typed).toMatch(/^[0-9A-Z]{4}$/);
    // wrong picture code, and the picture is single use
    expect((await pub('sendSmsCode', { usr: 'owner_dora', msgType: '02', channel: '1', vkey: pic.dat!.key, vcode: typed === 'AAAA' ? 'BBBB' : 'AAAA' }, ip)).err).toBe(384);
    expect((await pub('sendSmsCode', { usr: 'owner_dora', msgType: '02', channel: '1', vkey: pic.dat!.key, vcode: typed }, ip)).err).toBe(384);
    const pic2 = await pub<{ key: string; img: string }>('getPictureCode', {}, ip);
    const step0 = await pub('sendSmsCode', { usr: 'owner_dora', msgType: '02', channel: '1', vkey: pic2.dat!.key, vcode: readPicture(pic2.dat!.img).toLowerCase() }, ip);
    expect(step0.err).toBe(515);
    expect((await pub('sendSmsCode', { usr: 'nobody_here', msgType: '02', channel: '1' }, ip)).err).toBe(261);
    expect((await pub('sendSmsCode', { usr: 'owner_anna', msgType: '02', channel: '1' }, ip)).err).toBe(514);
    expect((await pub('sendSmsCode', { usr: 'owner_dora', msgType: '02', channel: '1', email: 'other@example.com' }, ip)).err).toBe(515);
    expect((await pub('sendSmsCode', { usr: 'owner_dora', msgType: '02', channel: '1', email: 'dora@example.com', i18n: 'fr_FR', webName: 'Sunwatch' }, ip)).err).toBe(0);
    const { row, code } = await codeFor('dora@example.com');
    expect(row.subject).toBe('Votre code de vérification Sunwatch');
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await pub('confirmSmsCode', { usr: 'owner_dora', msgType: '02', smsCode: wrong }, ip)).err).toBe(512);
    expect((await pub('confirmSmsCode', { usr: 'owner_dora', msgType: '02', smsCode: code }, ip)).err).toBe(0);
    const reset = (password: string, smsCode: string, email = 'dora@example.com') => ({
      usr: 'owner_dora',
      msgType: '02',
      channel: '01',
      smsCode,
      email,
      webName: 'Sunwatch',
      ...encodeSelfServicePassword('owner_dora', password),
    });
    expect((await pub('smsCodeUpdatePassword', reset('Reset_2026', code, 'other@example.com'), ip)).err).toBe(515);
    expect((await pub('smsCodeUpdatePassword', reset('12345678', code), ip)).err).toBe(17);
    expect((await pub('smsCodeUpdatePassword', reset('Reset_2026', code), ip)).err).toBe(0);
    expect((await pub('smsCodeUpdatePassword', reset('Again_2026', code), ip)).err).toBe(512);
    expect((await s.login('owner_dora', 'Owner_2026')).err).not.toBe(0);
    expect((await s.call(dora, 'queryAccountInfo')).err).toBe(10);
    await session('owner_dora', 'Reset_2026');
    const audit = await s.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'smsCodeUpdatePassword').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toContain('"changed":["password"]');
  });

  it('an email reset code expires after five minutes (513)', async () => {
    const ip = freshIp();
    expect((await pub('sendSmsCode', { usr: 'owner_dora', msgType: '02', channel: '1', email: 'dora@example.com' }, ip)).err).toBe(0);
    const { code } = await codeFor('dora@example.com');
    s.clock.advance(299_000);
    expect((await pub('confirmSmsCode', { usr: 'owner_dora', smsCode: code }, ip)).err).toBe(0);
    s.clock.advance(2_000);
    expect((await pub('confirmSmsCode', { usr: 'owner_dora', smsCode: code }, ip)).err).toBe(513);
  });

  it('bind and unbind email and phone with codes; another account\'s address is refused; the operator reads codes in the outbox', async () => {
    const anna = await session('owner_anna', 'Owner_2026');
    const api = s.api(anna);
    const err = (p: Promise<unknown>) => p.then(() => 0, (e: { err: number }) => e.err);
    expect(await err(api.call('sendBindCode', { purpose: 'bind', channel: '1', email: 'dora@example.com' }))).toBe(26);
    expect(await err(api.call('sendBindCode', { purpose: 'unbind', channel: '1' }))).toBe(514);
    await api.call('sendBindCode', { purpose: 'bind', channel: '1', email: 'anna.new@example.com' });
    const { code } = await codeFor('anna.new@example.com');
    expect(await err(api.call('bindEmail', { email: 'anna.other@example.com', smsCode: code }))).toBe(512);
    await api.call('bindEmail', { email: 'anna.new@example.com', smsCode: code });
    expect((await api.call('queryAccountInfo', {})).email).toBe('anna.new@example.com');

    await api.call('sendBindCode', { purpose: 'bind', channel: '0', mobile: '13700001111' });
    await api.call('bindMobile', { mobile: '13700001111', smsCode: (await codeFor('13700001111')).code });
    expect((await api.call('queryAccountInfo', {})).mobile).toBe('13700001111');

    await api.call('sendBindCode', { purpose: 'unbind', channel: '1' });
    const unbindCode = (await codeFor('anna.new@example.com')).code;
    await api.call('unbindEmail', { smsCode: unbindCode });
    expect((await api.call('queryAccountInfo', {})).email).toBe('');
    // recovery through the removed email is gone
    expect((await pub('sendSmsCode', { usr: 'owner_anna', msgType: '02', channel: '1' }, freshIp())).err).toBe(514);
    const audit = await s.ctx.db.selectFrom('audit_log').select(['action', 'before', 'after']).where('action', 'in', ['bindEmail', 'unbindEmail']).execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'bindEmail', before: '{"email":""}', after: '{"email":"anna.new@example.com"}' },
        { action: 'unbindEmail', before: '{"email":"anna.new@example.com"}', after: '{"email":""}' },
      ]),
    );

    const operator = s.api(await session('operator', 'Operator_2026'));
    const list = await operator.call('queryMailOutbox', { to: '13700001111' });
    expect(list.mail[0]).toMatchObject({ kind: 'sms', state: 'outbox', to: '13700001111' });
  });
});

// AuthDat is used for typing the login answer in session(); keep the import referenced.
export type { AuthDat };
