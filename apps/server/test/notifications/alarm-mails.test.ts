import { ApiCallError, type AuthDat } from '@sunwatch/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';
import { createDatalogger, frame2341, waitFor, type TestDatalogger } from '../factories/telemetry-ingest.js';
import { muteByRules } from '../../src/modules/alarms/alarm-mute.js';
import { TestSmtp } from './smtp.js';

/**
 * Alarm mails end to end (issue 11, notifications): subscriptions through the actions, alarms
 * raised by real ingestion, the notifier and sender jobs of the running server, a real SMTP server
 * in-process. The jobs run every 100 ms here; the retry back-off is a minute of the test clock.
 */
const PUBLIC_URL = 'https://portal.example';
const RETRY_MS = 60_000;

async function expectErr(p: Promise<unknown>, code: number): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, `expected err ${code}`).toBeInstanceOf(ApiCallError);
  expect((e as ApiCallError).err).toBe(code);
}

describe.each(engines)('alarm mails ($name)', (engine) => {
  const smtp = new TestSmtp();
  let s: TestServer;
  let restarted: TestServer | undefined;
  const api: Record<string, ApiClient> = {};
  let annaPlant: number;
  let benPlant: number;
  let dl: TestDatalogger;
  let benDl: TestDatalogger;
  const notifications = () => ({
    ...loadConfig({}).notifications,
    smtpUrl: smtp.url,
    publicUrl: PUBLIC_URL,
    alarmScanMs: 100,
    sendMs: 100,
    retryBaseMs: RETRY_MS,
    smtpTimeoutMs: 2000,
  });

  beforeAll(async () => {
    await smtp.up();
    s = await startTestServer(engine, { config: { notifications: notifications() } });
    for (const [usr, pwd] of [
      ['owner_anna', 'Owner_2026'],
      ['viewer_cara', 'Viewer_2026'],
      ['owner_ben', 'Owner_2026'],
      ['dealer_north', 'Dealer_2026'],
      ['north_ops', 'SubAdmin_2026'],
    ] as const) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      api[usr] = s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret });
    }
    const plantOf = async (usr: string) =>
      (
        await s.ctx.db
          .selectFrom('projects as p')
          .innerJoin('accounts as a', 'a.id', 'p.owner_id')
          .select('p.id')
          .where('a.usr', '=', usr)
          .orderBy('p.id')
          .executeTakeFirstOrThrow()
      ).id;
    annaPlant = await plantOf('owner_anna');
    benPlant = await plantOf('owner_ben');
    // A datalogger of our own on each plant (the demo fleet does not run in tests).
    const bind = async (plant: number) => {
      const d = await createDatalogger(s.ctx, { withPlant: false });
      await s.ctx.db.updateTable('dataloggers').set({ project_id: plant }).where('id', '=', d.id).execute();
      s.ctx.services.telemetry.ingest.invalidate(d.pn);
      return { ...d, projectId: plant };
    };
    dl = await bind(annaPlant);
    benDl = await bind(benPlant);
  }, 60_000);

  afterAll(async () => {
    await restarted?.stop();
    await s?.stop();
    await smtp.down();
  });

  const ingest = async (i: number, fault?: number) => {
    const f = frame2341(dl.pn, s.clock.now() - 60_000 + i * 1000, i, fault !== undefined ? { fault } : {});
    const r = await s.ctx.services.telemetry.ingest.submitData(dl.pn, f);
    expect(r.ok, r.detail).toBe(true);
  };
  /** Inserts alarms directly (one statement: one transaction), as ingestion would. */
  const insertAlarms = async (d: TestDatalogger, rows: Array<{ level: number; code: number; description?: string }>) => {
    const now = s.clock.now();
    await s.ctx.db
      .insertInto('alarms')
      .values(
        rows.map((r) => ({
          datalogger_id: d.id,
          device_id: null,
          level: r.level,
          code: r.code,
          description: r.description ?? `Test alarm ${r.code}`,
          started_at: now,
          ended_at: null,
          handled: 0,
        })),
      )
      .execute();
    return Number((await s.ctx.db.selectFrom('alarms').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow()).m);
  };
  /** Waits until the notifier has read every alarm up to now (its cursor passed the newest). */
  const notifierCaughtUp = () =>
    waitFor(async () => {
      const max = await s.ctx.db.selectFrom('alarms').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst();
      const c = await s.ctx.db.selectFrom('notification_cursors').select('value').where('name', '=', 'alarm-raise').executeTakeFirst();
      return Number(c?.value ?? -1) >= Number(max?.m ?? 0);
    }, 20_000);
  const mailsTo = (email: string) =>
    s.ctx.db.selectFrom('mail_queue').selectAll().where('recipient', '=', email).orderBy('id').execute();

  it('subscriptions: own plants only (a foreign plant is refused, nothing written), e-mail checked, listed', async () => {
    await expectErr(
      api.owner_anna!.call('addEmailPush', { email: 'anna@example.com', pid: `${annaPlant},${benPlant}`, level: '2' }),
      260,
    );
    await expectErr(api.owner_anna!.call('addEmailPush', { email: 'not-an-email', pid: String(annaPlant) }), 20);
    expect((await api.owner_anna!.call('queryEmailPush', {})).total).toBe(0);
    expect(await s.ctx.db.selectFrom('email_push').selectAll().execute()).toEqual([]);

    const { id } = await api.owner_anna!.call('addEmailPush', {
      email: 'anna@example.com',
      pid: String(annaPlant),
      level: '0,1,2,3',
      report: 'daily,monthly',
      language: 'de_DE',
    });
    await expectErr(api.owner_anna!.call('addEmailPush', { email: 'ANNA@example.com', pid: String(annaPlant) }), 14);
    await expectErr(api.owner_anna!.call('editEmailPush', { id, pid: String(benPlant) }), 260);
    // The viewer may subscribe to the plant shared with her, in her own language (the call's).
    const cara = await api.viewer_cara!.call('addEmailPush', { email: 'cara@example.com', pid: String(annaPlant), level: '2' });
    // Another account's subscription is not found (12), neither edited nor deleted.
    await expectErr(api.owner_ben!.call('editEmailPush', { id, level: '0' }), 12);
    await expectErr(api.owner_ben!.call('delEmailPush', { id }), 12);

    const list = await api.owner_anna!.call('queryEmailPush', {});
    expect(list.total).toBe(1);
    expect(list.push[0]).toMatchObject({
      id,
      email: 'anna@example.com',
      plants: [{ pid: annaPlant }],
      level: [0, 1, 2, 3],
      report: ['daily', 'monthly'],
      language: 'de_DE',
      enable: true,
    });
    const caraRow = (await api.viewer_cara!.call('queryEmailPush', {})).push[0]!;
    expect(caraRow).toMatchObject({ id: cara.id, language: 'en_US', level: [2] });
    await api.viewer_cara!.call('editEmailPush', { id: cara.id, language: 'zh_CN' });
    // Audited before → after.
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'email_push')
      .where('entity_id', '=', String(cara.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['addEmailPush', 'editEmailPush']);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ language: 'en_US' });
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ language: 'zh_CN' });
  });

  it('a fault raises an alarm: a mail in each subscriber\'s language, linking to the alarm; its end is mailed too', async () => {
    await ingest(0);
    await ingest(1, 2); // fault 2 "Over temperature" (level 2, fault)
    const alarm = await waitFor(() =>
      s.ctx.db.selectFrom('alarms').selectAll().where('datalogger_id', '=', dl.id).where('code', '=', 2).executeTakeFirst(),
    );
    const de = await waitFor(async () => smtp.to('anna@example.com')[0]);
    expect(de.subject).toContain('Übertemperatur');
    expect(de.subject).toContain('[Störung]');
    expect(de.text).toContain(`${PUBLIC_URL}/generalNew/alarm?id=${alarm.id}`);
    expect(de.text).toContain('Gerät:');
    expect(de.html).toContain(`href="${PUBLIC_URL}/generalNew/alarm?id=${alarm.id}"`);
    const zh = await waitFor(async () => smtp.to('cara@example.com')[0]);
    expect(zh.subject).toContain('过温');
    expect(zh.subject).toContain('[故障]');
    // Sent once, the SMTP answer recorded with it.
    const row = await waitFor(async () => (await mailsTo('anna@example.com')).find((m) => m.state === 'sent'));
    expect(row.smtp_response).toMatch(/^250/);
    expect(de.messageId).toBe(row.message_id);

    await ingest(2); // the fault clears
    const cleared = await waitFor(async () => smtp.to('anna@example.com')[1]);
    expect(cleared.subject).toContain('Behoben: Übertemperatur');
    expect(cleared.text).toContain('Beendet:');
    expect(smtp.to('anna@example.com')).toHaveLength(2);
    expect(await s.ctx.db.selectFrom('alarm_notices').selectAll().where('alarm_id', '=', alarm.id).execute()).toEqual([]);
  });

  it('a storm of 1,000 alarms is one digest per subscriber', async () => {
    const before = smtp.to('anna@example.com').length;
    await insertAlarms(
      dl,
      Array.from({ length: 1000 }, (_, i) => ({ level: i % 3, code: 1000 + i })),
    );
    await notifierCaughtUp();
    const digest = await waitFor(async () => smtp.to('anna@example.com')[before], 15_000);
    expect(digest.subject).toBe('1000 Alarmereignisse in 1 Anlage(n)');
    expect(digest.text).toContain('… und 900 weitere');
    expect(digest.text).toMatch(/Alarmliste öffnen: https:\/\/portal\.example\/generalNew\/alarm\r?\n/);
    // Cara subscribed to faults only: one digest with the 333 faults.
    const caraDigest = await waitFor(async () => smtp.to('cara@example.com').find((m) => m.subject.includes('333')));
    expect(caraDigest.subject).toContain('333');
    // Nothing else is coming for the storm: the next run finds no events, the queue holds 1 row.
    expect((await s.ctx.services.notifications.alarms.runOnce()).mails).toBe(0);
    const queued = await mailsTo('anna@example.com');
    expect(queued).toHaveLength(before + 1);
    await waitFor(async () => (await mailsTo('anna@example.com')).every((m) => m.state === 'sent'));
    expect(smtp.to('anna@example.com')).toHaveLength(before + 1);
  }, 60_000);

  it('no subscription, another level or a suppressing rule: no mail', async () => {
    const before = (await s.ctx.db.selectFrom('mail_queue').selectAll().execute()).length;
    await insertAlarms(benDl, [{ level: 2, code: 7 }]); // Ben's plant: nobody subscribed
    await insertAlarms(dl, [{ level: 0, code: 8 }]); // a warning: Cara takes faults only
    await notifierCaughtUp();
    const after = await s.ctx.db.selectFrom('mail_queue').selectAll().where('id', '>', 0).orderBy('id').execute();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)!.recipient).toBe('anna@example.com');
    expect(after.some((m) => m.recipient.includes('ben'))).toBe(false);

    // The filter-rule port: a fake rule hides code 9 from Anna's subscription (not from Cara's).
    const annaPushId = (await api.owner_anna!.call('queryEmailPush', {})).push[0]!.id;
    s.ctx.services.notifications.alarms.useSuppression((alarm, sub) =>
      Promise.resolve(alarm.code === 9 && alarm.plantId === annaPlant && sub.pushId === annaPushId),
    );
    try {
      await insertAlarms(dl, [{ level: 2, code: 9 }]);
      await notifierCaughtUp();
      const rows = await s.ctx.db.selectFrom('mail_queue').selectAll().where('id', '>', after.at(-1)!.id).execute();
      expect(rows.map((r) => r.recipient)).toEqual(['cara@example.com']);
    } finally {
      // Back to the app's own port: the subscriber's mute rules (create-context.ts).
      s.ctx.services.notifications.alarms.useSuppression(muteByRules(s.ctx.services.alarmRules));
    }
  });

  it('a mute rule added through addWarningRule stops the mail of a matching alarm; a non-matching one is mailed', async () => {
    await waitFor(async () => (await s.ctx.db.selectFrom('mail_queue').selectAll().where('state', '!=', 'sent').execute()).length === 0);
    const annaBefore = smtp.to('anna@example.com').length;
    const caraBefore = smtp.to('cara@example.com').length;
    // Anna mutes fault 21 of her datalogger's device type (a real rule: mute only, not hidden).
    const rule = await api.owner_anna!.call('addWarningRule', { name: 'Mute fault 21', code: '21', level: '2', mute: 1, hide: 0 });
    try {
      const muted = await insertAlarms(dl, [{ level: 2, code: 21 }]);
      const mailed = await insertAlarms(dl, [{ level: 2, code: 22 }]);
      await notifierCaughtUp();
      // Cara (no rules) hears of both, Anna only of the one her rule does not match.
      const cara = await waitFor(async () => {
        const m = smtp.to('cara@example.com').slice(caraBefore).map((x) => x.text).join('\n');
        return m.includes(`alarm?id=${muted}`) && m.includes(`alarm?id=${mailed}`) ? m : undefined;
      }, 15_000);
      expect(cara).toContain(`alarm?id=${muted}`);
      const anna = await waitFor(async () => {
        const m = smtp.to('anna@example.com').slice(annaBefore).map((x) => x.text).join('\n');
        return m.includes(`alarm?id=${mailed}`) ? m : undefined;
      }, 15_000);
      expect(anna).not.toContain(`alarm?id=${muted}`);
      await waitFor(async () => (await s.ctx.db.selectFrom('mail_queue').selectAll().where('state', '!=', 'sent').execute()).length === 0);
      const queued = await s.ctx.db.selectFrom('mail_queue').select('body_text').where('recipient', '=', 'anna@example.com').execute();
      expect(queued.filter((m) => m.body_text.includes(`alarm?id=${muted}`))).toEqual([]);

      // Disabled, the rule mutes nothing: the next fault 21 reaches Anna.
      await api.owner_anna!.call('editWarningRule', { id: rule.id, enable: 0 });
      const again = await insertAlarms(dl, [{ level: 2, code: 21 }]);
      await notifierCaughtUp();
      await waitFor(async () => smtp.to('anna@example.com').find((m) => m.text.includes(`alarm?id=${again}`)), 15_000);
    } finally {
      await api.owner_anna!.call('delWarningRule', { id: rule.id });
    }
  });

  it("a sub-administrator's alarm mails follow its bound role: none without alarm management, mailed again once the role grants it", async () => {
    await waitFor(async () => (await s.ctx.db.selectFrom('mail_queue').selectAll().where('state', '!=', 'sent').execute()).length === 0);
    // north_ops (dealer_north's sub-administrator) subscribes to Anna's plant, in its reach.
    await api.north_ops!.call('addEmailPush', { email: 'ops@example.com', pid: String(annaPlant), level: '2' });
    const ops = (await s.ctx.repos.accounts.findByUsr('north_ops'))!;
    // Its stored permission list grants alarm management; the role bound to it now does not.
    const deviceOnly = await api.dealer_north!.call('addRole', { name: 'Devices only', functions: 'device_manag,device_list' });
    await api.dealer_north!.call('assignRole', { uid: String(ops.id), rid: String(deviceOnly.rid) });
    const mark = Number((await s.ctx.db.selectFrom('mail_queue').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);
    await insertAlarms(dl, [{ level: 2, code: 11 }]);
    await notifierCaughtUp();
    const first = await s.ctx.db.selectFrom('mail_queue').select('recipient').where('id', '>', mark).execute();
    expect(first.map((r) => r.recipient)).toContain('anna@example.com');
    expect(first.map((r) => r.recipient)).not.toContain('ops@example.com');

    // The role edit counts at the next alarm, with no new sign-in.
    await api.dealer_north!.call('editRole', { rid: String(deviceOnly.rid), functions: 'device_manag,device_list,alarm_manag,alarm_list' });
    const mark2 = Number((await s.ctx.db.selectFrom('mail_queue').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);
    await insertAlarms(dl, [{ level: 2, code: 12 }]);
    await notifierCaughtUp();
    const second = await s.ctx.db.selectFrom('mail_queue').select('recipient').where('id', '>', mark2).execute();
    expect(second.map((r) => r.recipient)).toContain('ops@example.com');
    await api.north_ops!.call('delEmailPush', { id: (await api.north_ops!.call('queryEmailPush', {})).push[0]!.id });
  });

  it('SMTP down, then up: delivered exactly once after the back-off', async () => {
    await waitFor(async () => (await s.ctx.db.selectFrom('mail_queue').selectAll().where('state', '!=', 'sent').execute()).length === 0);
    await smtp.down();
    const before = smtp.to('anna@example.com').length;
    const alarmId = await insertAlarms(dl, [{ level: 1, code: 11, description: 'Grid lost' }]);
    const failed = await waitFor(async () =>
      (await mailsTo('anna@example.com')).find((m) => m.state === 'queued' && m.attempts >= 1 && m.last_error !== ''),
    );
    expect(failed.last_error).not.toBe('');
    expect(Number(failed.next_attempt_at)).toBeGreaterThan(s.clock.now() + RETRY_MS / 2);
    await smtp.up();
    s.clock.advance(RETRY_MS + 1000);
    const mail = await waitFor(async () => smtp.to('anna@example.com')[before]);
    expect(mail.text).toContain(`alarm?id=${alarmId}`);
    await waitFor(async () => (await mailsTo('anna@example.com')).find((m) => m.id === failed.id && m.state === 'sent'));
    expect((await s.ctx.services.notifications.sender.runOnce()).sent).toBe(0);
    expect(smtp.to('anna@example.com').filter((m) => m.text.includes(`alarm?id=${alarmId}`))).toHaveLength(1);
  });

  it('a restart between enqueue and send sends it once; a mail whose sender died mid-SMTP is unconfirmed, not resent', async () => {
    await smtp.down();
    const before = smtp.to('anna@example.com').length;
    const alarmId = await insertAlarms(dl, [{ level: 2, code: 12 }]);
    const queued = await waitFor(async () => (await mailsTo('anna@example.com')).find((m) => m.state === 'queued' && m.attempts >= 1));
    // A second mail, left `sending` by a sender that crashed mid-SMTP (its claim has expired by now).
    await s.ctx.services.notifications.queue.enqueue(
      { dedupeKey: 'test:crashed', kind: 'alarm', accountId: null, recipient: 'anna@example.com', locale: 'de_DE', subject: 'crashed', text: 'crashed', html: '<p>crashed</p>' },
      'queued',
      s.clock.now(),
    );
    await sql`update mail_queue set state = 'sending', claim_token = 'dead', claim_until = ${s.clock.now() + 1000}, attempts = 1
      where dedupe_key = 'test:crashed'`.execute(s.ctx.db);
    // An enqueue with the same dedupe key is a no-op.
    expect(
      await s.ctx.services.notifications.queue.enqueue(
        { dedupeKey: 'test:crashed', kind: 'alarm', accountId: null, recipient: 'anna@example.com', locale: 'de_DE', subject: 'x', text: 'x', html: 'x' },
        'queued',
        s.clock.now(),
      ),
    ).toBe(false);

    // The server stops (as a crash would: nothing more is sent), SMTP comes back, a new instance
    // starts on the same database a back-off later.
    await s.close();
    await smtp.up();
    s.clock.advance(RETRY_MS + 1000);
    restarted = await startTestServer(engine, { shareWith: s, seed: false, config: { notifications: notifications() } });
    const r = restarted;
    // The SMTP answer is recorded right after the server accepted the mail: wait for both rows.
    const states = () =>
      r.ctx.db
        .selectFrom('mail_queue')
        .select('state')
        .where((eb) => eb.or([eb('id', '=', queued.id), eb('dedupe_key', '=', 'test:crashed')]))
        .orderBy('id')
        .execute();
    await waitFor(async () => (await states())[0]!.state === 'sent');
    // The crashed one may have reached the SMTP server: only the operator sends it again.
    expect(await states()).toEqual([{ state: 'sent' }, { state: 'unconfirmed' }]);
    expect((await restarted.ctx.services.notifications.sender.runOnce()).sent).toBe(0);
    const mine = smtp.to('anna@example.com').slice(before);
    expect(mine.filter((m) => m.text.includes(`alarm?id=${alarmId}`))).toHaveLength(1);
    expect(mine.filter((m) => m.subject === 'crashed')).toHaveLength(0);
  });
});
