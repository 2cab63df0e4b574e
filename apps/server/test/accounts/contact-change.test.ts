import { rc4EncryptHex, sha1Hex, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CONTACT_CHANGE_TEXTS } from '../../src/modules/selfservice/contact-change-texts.js';
import { waitFor } from '../factories/telemetry-ingest.js';
import { FIXED_NOW, engines, startTestServer, type TestServer } from '../harness.js';
import { TestSmtp } from '../notifications/smtp.js';

/**
 * Issue 12, session 26: a change of an account's recovery e-mail or phone (editAccount without a
 * code, editSubAccount, editDist, editPlantBrowser, bind/unbind) sends a security notice to the OLD
 * address; account creation refuses a phone (18) or e-mail (26) another account holds, with the
 * same rule as editAccount.
 */
type Session = { token: string; secret: string };
const pwdParams = (session: Session, password: string) => ({
  pwd: rc4EncryptHex(session.secret, sha1Hex(password)),
  pwdtext: rc4EncryptHex(session.secret, password),
});

describe.each(engines)('recovery contact: creation holder check and change notices ($name)', (engine) => {
  let s: TestServer;
  const sessions = new Map<string, AuthDat>();
  const as = (usr: string) => sessions.get(usr)!;
  const login = async (usr: string, pwd: string) => {
    const r = await s.login(usr, pwd);
    expect(r.err, usr).toBe(0);
    sessions.set(usr, r.dat!);
    return r.dat!;
  };
  const notices = (to: string) =>
    s.ctx.db
      .selectFrom('mail_queue')
      .selectAll()
      .where('recipient', '=', to)
      .where('kind', 'in', ['security', 'sms'])
      .orderBy('id', 'asc')
      .execute();
  const codeFor = async (to: string) => {
    const row = await s.ctx.db
      .selectFrom('mail_queue')
      .selectAll()
      .where('recipient', '=', to)
      .where('kind', 'in', ['code', 'sms'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return /\b(\d{6})\b/.exec(row.body_text)![1]!;
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    for (const [u, p] of [
      ['sunmaker', 'Maker_2026'],
      ['dealer_north', 'Dealer_2026'],
      ['owner_anna', 'Owner_2026'],
    ] as const)
      await login(u, p);
  }, 60_000);
  afterAll(() => s?.stop());

  it('account creation refuses a phone (18) or e-mail (26, any case) another account holds; free ones pass', async () => {
    const owner = (usr: string, extra: Record<string, string>) =>
      s.call(as('dealer_north'), 'addPlantOwner', { usr, ...pwdParams(as('dealer_north'), 'Owner_2026'), ...extra });
    expect((await owner('cc_owner1', { mobile: '13800138001' })).err).toBe(18);
    expect((await owner('cc_owner1', { email: 'DORA@Example.com' })).err).toBe(26);
    expect(await s.ctx.repos.accounts.findByUsr('cc_owner1')).toBeUndefined();
    expect((await owner('cc_owner1', { mobile: '13800990001', email: 'cc1@example.com' })).err).toBe(0);
    expect((await owner('cc_owner2', { email: 'CC1@example.com' })).err).toBe(26);

    const dist = (usr: string, extra: Record<string, string>) =>
      s.call(as('sunmaker'), 'addDist', { usr, ...pwdParams(as('sunmaker'), 'Dealer_2026'), vcode: 'C1', ...extra });
    expect((await dist('cc_dist', { mobile: '13800990001' })).err).toBe(18);
    expect((await dist('cc_dist', { email: 'dora@example.com' })).err).toBe(26);
    expect((await dist('cc_dist', { mobile: '13800990002' })).err).toBe(0);

    const viewer = (usr: string, extra: Record<string, string>) =>
      s.call(as('owner_anna'), 'addPlantBrowser', { usr, ...pwdParams(as('owner_anna'), 'Viewer_2026'), ...extra });
    expect((await viewer('cc_viewer', { mobile: '13800990002' })).err).toBe(18);
    expect((await viewer('cc_viewer', { email: 'cc1@EXAMPLE.com' })).err).toBe(26);
    const made = await viewer('cc_viewer', { email: 'viewer.cc@example.com' });
    expect(made.err).toBe(0);
    const vid = (await s.ctx.repos.accounts.findByUsr('cc_viewer'))!.id;
    // editing a viewer: the same rule, its own value again is fine
    expect((await s.call(as('owner_anna'), 'editPlantBrowser', { uid: vid, email: 'dora@example.com' })).err).toBe(26);
    expect((await s.call(as('owner_anna'), 'editPlantBrowser', { uid: vid, mobile: '13800138001' })).err).toBe(18);
    expect((await s.call(as('owner_anna'), 'editPlantBrowser', { uid: vid, email: 'Viewer.CC@example.com', desc: 'x' })).err).toBe(0);
    expect(await notices('viewer.cc@example.com')).toHaveLength(0); // same address, another case: no notice
    expect((await s.call(as('owner_anna'), 'editPlantBrowser', { uid: vid, email: 'viewer2.cc@example.com' })).err).toBe(0);
    expect(await notices('Viewer.CC@example.com')).toEqual([expect.objectContaining({ kind: 'security', account_id: vid })]);
  });

  it('editAccount changing or clearing the recovery e-mail / phone notifies the old address in the call language; a refused edit sends nothing', async () => {
    const add = await s.call(as('dealer_north'), 'addPlantOwner', {
      usr: 'cc_self',
      ...pwdParams(as('dealer_north'), 'Owner_2026'),
      email: 'Old.Self@example.com',
      mobile: '13800990010',
    });
    expect(add.err).toBe(0);
    const me = await login('cc_self', 'Owner_2026');
    // refused (another account holds it): nothing is sent
    expect((await s.call(me, 'editAccount', { email: 'dora@example.com' })).err).toBe(26);
    // unchanged value (another case) and a change of another field: nothing is sent
    expect((await s.call(me, 'editAccount', { email: 'old.self@EXAMPLE.com', qname: 'Self' })).err).toBe(0);
    expect(await notices('Old.Self@example.com')).toHaveLength(0);
    expect(await notices('old.self@EXAMPLE.com')).toHaveLength(0);

    expect((await s.call(me, 'editAccount', { email: 'new.self@example.com', i18n: 'de_DE' }, { ip: '198.51.100.7' })).err).toBe(0);
    const mails = await notices('old.self@EXAMPLE.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'security',
      state: 'outbox',
      locale: 'de_DE',
      account_id: me.uid,
      subject: CONTACT_CHANGE_TEXTS.de_DE.subject,
    });
    expect(mails[0]!.body_text).toContain('cc_self');
    expect(mails[0]!.body_text).toContain('198.51.100.7');
    expect(mails[0]!.body_text).toContain('UTC');
    expect(mails[0]!.body_text).toContain('geändert');
    expect(mails[0]!.body_text).not.toContain('new.self@example.com');
    // the new address gets nothing
    expect(await notices('new.self@example.com')).toHaveLength(0);

    // clearing the phone: an SMS to the old phone through the provider (outbox)
    expect((await s.call(me, 'editAccount', { mobile: '', i18n: 'fr_FR' }, { ip: '198.51.100.8' })).err).toBe(0);
    const sms = await notices('13800990010');
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ kind: 'sms', state: 'outbox', locale: 'fr_FR' });
    expect(sms[0]!.body_text).toContain('supprimé');
    expect(sms[0]!.body_text).toContain('198.51.100.8');

    // setting a phone where there was none: no old address, nothing sent
    const before = (await s.ctx.db.selectFrom('mail_queue').select('id').execute()).length;
    expect((await s.call(me, 'editAccount', { mobile: '13800990011' })).err).toBe(0);
    expect((await s.ctx.db.selectFrom('mail_queue').select('id').execute()).length).toBe(before);
  });

  it('an administrator changing a subordinate\'s address and the bind/unbind flows notify the old address too', async () => {
    const add = await s.call(as('dealer_north'), 'addPlantOwner', {
      usr: 'cc_sub',
      ...pwdParams(as('dealer_north'), 'Owner_2026'),
      email: 'sub.old@example.com',
    });
    expect(add.err).toBe(0);
    const uid = (await s.ctx.repos.accounts.findByUsr('cc_sub'))!.id;
    expect((await s.call(as('dealer_north'), 'editSubAccount', { uid, email: 'sub.new@example.com', i18n: 'zh_CN' })).err).toBe(0);
    const [mail] = await notices('sub.old@example.com');
    expect(mail).toMatchObject({ kind: 'security', locale: 'zh_CN', subject: CONTACT_CHANGE_TEXTS.zh_CN.subject });

    // bind: sub.new → sub.bound; the old one hears of it
    const me = await login('cc_sub', 'Owner_2026');
    const api = s.api(me);
    await api.call('sendBindCode', { purpose: 'bind', channel: '1', email: 'sub.bound@example.com' });
    await api.call('bindEmail', { email: 'sub.bound@example.com', smsCode: await codeFor('sub.bound@example.com') });
    expect(await notices('sub.new@example.com')).toEqual([expect.objectContaining({ kind: 'security' })]);
    // unbind: the removed address hears of it (the "removed" text)
    await api.call('sendBindCode', { purpose: 'unbind', channel: '1' });
    await api.call('unbindEmail', { smsCode: await codeFor('sub.bound@example.com') });
    const removed = await notices('sub.bound@example.com');
    expect(removed).toHaveLength(1);
    expect(removed[0]!.body_text).toContain('removed');
  });
});

describe.each(engines)('recovery contact change notice over SMTP ($name)', (engine) => {
  const smtp = new TestSmtp();
  let s: TestServer;

  beforeAll(async () => {
    await smtp.up();
    s = await startTestServer(engine, {
      now: FIXED_NOW,
      config: {
        notifications: { ...loadConfig({}).notifications, smtpUrl: smtp.url, sendMs: 100, smtpTimeoutMs: 5000 },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
    await smtp.down();
  });

  it('the old address receives the security mail through SMTP', async () => {
    const dora = (await s.login('owner_dora', 'Owner_2026')).dat!;
    expect((await s.call(dora, 'editAccount', { email: 'dora.new@example.com', i18n: 'it_IT' }, { ip: '203.0.113.9' })).err).toBe(0);
    const mail = await waitFor(async () => smtp.to('dora@example.com')[0], 30_000);
    expect(mail.subject).toBe(CONTACT_CHANGE_TEXTS.it_IT.subject);
    expect(mail.text).toContain('203.0.113.9');
    expect(mail.text).toContain('owner_dora');
    expect(smtp.to('dora.new@example.com')).toHaveLength(0);
  });
});
