import { ApiCallError, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { detectOfflineDataloggers } from '../../src/jobs/detect-offline-dataloggers.job.js';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';
import { createDatalogger, frame2341, waitFor } from '../factories/telemetry-ingest.js';

/**
 * Without SMTP_URL every mail stays in the outbox (state `outbox`), which the operator reads with
 * queryMailOutbox; the offline alarm of the offline job is mailed like any other.
 */
describe.each(engines)('mail outbox without SMTP_URL ($name)', (engine) => {
  let s: TestServer;
  let operator: ApiClient;
  let anna: ApiClient;

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { notifications: { ...loadConfig({}).notifications, smtpUrl: undefined, publicUrl: 'https://p.example', alarmScanMs: 100 } },
    });
    const login = async (usr: string, pwd: string) => {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      return s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret });
    };
    operator = await login('operator', 'Operator_2026');
    anna = await login('owner_anna', 'Owner_2026');
  }, 60_000);
  afterAll(() => s?.stop());

  it('an offline alarm and its end go to the outbox, in English, readable by the operator only', async () => {
    const plant = (
      await s.ctx.db
        .selectFrom('projects as p')
        .innerJoin('accounts as a', 'a.id', 'p.owner_id')
        .select(['p.id', 'p.name'])
        .where('a.usr', '=', 'owner_anna')
        .orderBy('p.id')
        .executeTakeFirstOrThrow()
    );
    await anna.call('addEmailPush', { email: 'anna.outbox@example.com', pid: String(plant.id), level: '3', language: 'en_US' });
    const dl = await createDatalogger(s.ctx, { withPlant: false });
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ project_id: plant.id, status: 0, last_seen_at: s.clock.now() - 3_600_000 })
      .where('id', '=', dl.id)
      .execute();
    s.ctx.services.telemetry.ingest.invalidate(dl.pn);
    expect(await detectOfflineDataloggers(s.ctx)).toContain(dl.id);
    const alarm = await s.ctx.db.selectFrom('alarms').selectAll().where('datalogger_id', '=', dl.id).executeTakeFirstOrThrow();

    // (Only this datalogger's mails: the demo ones may go offline meanwhile.)
    const mails = () =>
      s.ctx.db
        .selectFrom('mail_queue')
        .selectAll()
        .where('recipient', '=', 'anna.outbox@example.com')
        .where('body_text', 'like', `%${dl.pn}%`)
        .orderBy('id')
        .execute();
    const raised = await waitFor(async () => (await mails())[0]);
    expect(raised.state).toBe('outbox');
    expect(raised.subject).toBe(`[Offline] Datalogger offline – ${plant.name}`);
    expect(raised.body_text).toContain(`https://p.example/generalNew/alarm?id=${alarm.id}`);
    expect(raised.body_text).toContain(`Device: ${dl.pn}`);

    // The next frame closes the offline alarm: its end is mailed too.
    const r = await s.ctx.services.telemetry.ingest.submitData(dl.pn, frame2341(dl.pn, s.clock.now() - 1000, 0));
    expect(r.ok, r.detail).toBe(true);
    const cleared = await waitFor(async () => (await mails())[1]);
    expect(cleared.subject).toBe(`Cleared: Datalogger offline – ${plant.name}`);
    expect(cleared.state).toBe('outbox');

    const list = await operator.call('queryMailOutbox', { state: 'outbox', to: 'ANNA.OUTBOX', pagesize: 50 });
    expect(list.total).toBe(list.mail.length);
    const listed = list.mail.filter((m) => m.text.includes(dl.pn));
    expect(listed.map((m) => m.subject)).toEqual([cleared.subject, raised.subject]);
    expect(listed[1]).toMatchObject({ to: 'anna.outbox@example.com', state: 'outbox', kind: 'alarm', attempts: 0, sentTime: '' });
    expect(listed[1]!.text).toContain(`alarm?id=${alarm.id}`);
    expect((await operator.call('queryMailOutbox', { to: 'nobody@' })).total).toBe(0);
    const refused = await anna.call('queryMailOutbox', {}).then(
      () => 0,
      (e: unknown) => (e as ApiCallError).err,
    );
    expect(refused).toBe(11);
  });
});
