import { ApiCallError, type AuthDat } from '@sunwatch/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';
import { TestSmtp } from './smtp.js';

/**
 * Mail sent at most once without the operator's say (issue 11, s22-ml): a real SMTP server
 * in-process refuses at RCPT TO, answers the final dot with 451 / 550, or keeps the message and
 * drops the connection before answering; a crash is injected between the server's acceptance
 * and the mark. Certain failures retry or give up as before; ambiguous ones become `unconfirmed`
 * and are sent again only through the operator's resendMail. The sender is driven by hand here
 * (its job's interval is an hour), the clock is the test clock.
 */
const RETRY_MS = 60_000;

async function expectErr(p: Promise<unknown>, code: number): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, `expected err ${code}`).toBeInstanceOf(ApiCallError);
  expect((e as ApiCallError).err).toBe(code);
}

describe.each(engines)('mail sent exactly once ($name)', (engine) => {
  const smtp = new TestSmtp();
  let s: TestServer;
  let operator: ApiClient;
  let seq = 0;

  beforeAll(async () => {
    await smtp.up();
    s = await startTestServer(engine, {
      config: {
        notifications: {
          ...loadConfig({}).notifications,
          smtpUrl: smtp.url,
          alarmScanMs: 3_600_000,
          sendMs: 3_600_000,
          retryBaseMs: RETRY_MS,
          smtpTimeoutMs: 2000,
          pruneEveryMs: 0,
        },
      },
    });
    const r = await s.login('operator', 'Operator_2026');
    expect(r.err).toBe(0);
    operator = s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret });
  }, 60_000);

  afterAll(async () => {
    s?.ctx.services.notifications.sender.useHooks({});
    await s?.stop();
    await smtp.down();
  });

  const sender = () => s.ctx.services.notifications.sender;
  /** Queues one mail to a fresh address; returns its row id and address. */
  const enqueue = async (name: string) => {
    seq += 1;
    const to = `${name}.${engine.name}.${seq}@example.com`.toLowerCase();
    await s.ctx.services.notifications.queue.enqueue(
      { dedupeKey: `once:${to}`, kind: 'alarm', accountId: null, recipient: to, locale: 'en_US', subject: `subject ${name}`, text: `text ${name}`, html: `<p>${name}</p>` },
      'queued',
      s.clock.now(),
    );
    const row = await s.ctx.db.selectFrom('mail_queue').selectAll().where('recipient', '=', to).executeTakeFirstOrThrow();
    return { id: row.id, to };
  };
  const rowOf = (id: number) => s.ctx.db.selectFrom('mail_queue').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('certain failures: refused at RCPT TO (550) and at the final dot (550) give up, 451 at the final dot and a refused connection retry after the back-off', async () => {
    const rcpt = await enqueue('rcpt');
    const dot550 = await enqueue('dot550');
    const dot451 = await enqueue('dot451');
    smtp.rules.set(rcpt.to, { rcpt: 550 });
    smtp.rules.set(dot550.to, { dataEnd: 550 });
    smtp.rules.set(dot451.to, { dataEnd: 451 });
    const before = s.clock.now();
    expect(await sender().runOnce()).toMatchObject({ sent: 0, failed: 3, unconfirmed: 0 });
    const after = s.clock.now();

    const r1 = await rowOf(rcpt.id);
    expect(r1).toMatchObject({ state: 'failed', attempts: 1 });
    expect(r1.last_error).toContain('RCPT TO 550');
    const r2 = await rowOf(dot550.id);
    expect(r2).toMatchObject({ state: 'failed', attempts: 1 });
    expect(r2.last_error).toContain('EMESSAGE DATA 550');
    const r3 = await rowOf(dot451.id);
    expect(r3).toMatchObject({ state: 'queued', attempts: 1 });
    expect(r3.last_error).toContain('EMESSAGE DATA 451');
    // the back-off counts from the failure (the test clock runs on during the SMTP exchange)
    expect(Number(r3.next_attempt_at)).toBeGreaterThanOrEqual(before + RETRY_MS);
    expect(Number(r3.next_attempt_at)).toBeLessThanOrEqual(after + RETRY_MS);

    // The server goes away: the 451 mail's retry is refused at connect (certain), then it is up.
    smtp.rules.delete(dot451.to);
    await smtp.down();
    s.clock.advance(RETRY_MS);
    expect(await sender().runOnce()).toMatchObject({ sent: 0, failed: 1 });
    const r4 = await rowOf(dot451.id);
    expect(r4).toMatchObject({ state: 'queued', attempts: 2 });
    expect(r4.last_error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
    await smtp.up();
    s.clock.advance(2 * RETRY_MS);
    expect(await sender().runOnce()).toMatchObject({ sent: 1 });
    expect(await rowOf(dot451.id)).toMatchObject({ state: 'sent', attempts: 3, last_error: '' });
    expect(smtp.to(dot451.to)).toHaveLength(1);
    expect(smtp.to(rcpt.to)).toHaveLength(0);
    expect(smtp.to(dot550.to)).toHaveLength(0);
  });

  it('a drop after the body is unconfirmed: not resent by later runs, listed for the operator, resent once on purpose', async () => {
    const m = await enqueue('drop');
    smtp.rules.set(m.to, { dropAfterBody: true });
    expect(await sender().runOnce()).toMatchObject({ sent: 0, failed: 0, unconfirmed: 1 });
    const row = await rowOf(m.id);
    expect(row.state).toBe('unconfirmed');
    expect(row.last_error).toMatch(/^delivery unknown, not resent automatically: .*ECONNECTION/);
    expect(smtp.to(m.to)).toHaveLength(1); // the server kept it
    smtp.rules.delete(m.to);
    s.clock.advance(24 * 3_600_000);
    expect((await sender().runOnce()).sent).toBe(0);
    expect(smtp.to(m.to)).toHaveLength(1);

    const listed = await operator.call('queryMailOutbox', { state: 'unconfirmed', to: m.to, pagesize: 50 });
    expect(listed.mail).toHaveLength(1);
    expect(listed.mail[0]).toMatchObject({ id: m.id, state: 'unconfirmed', error: row.last_error });

    await operator.call('resendMail', { id: m.id });
    expect(await rowOf(m.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect((await sender().runOnce()).sent).toBe(1);
    expect((await sender().runOnce()).sent).toBe(0);
    const got = smtp.to(m.to);
    expect(got).toHaveLength(2);
    // The same Message-ID both times, so the recipient's system can drop the copy.
    expect(got[1]!.messageId).toBe(got[0]!.messageId);
    const sent = await rowOf(m.id);
    expect(sent).toMatchObject({ state: 'sent', message_id: got[0]!.messageId });
    expect(sent.smtp_response).toMatch(/^250 /);
  });

  it('a crash between the server\'s 250 and the mark: the next run does NOT resend, the operator\'s resend sends it once (audited)', async () => {
    const m = await enqueue('crash');
    sender().useHooks({
      afterAccepted: () => {
        throw new Error('killed after accept');
      },
    });
    await expect(sender().runOnce()).rejects.toThrow('killed after accept');
    sender().useHooks({});
    expect(smtp.to(m.to)).toHaveLength(1);
    expect((await rowOf(m.id)).state).toBe('sending');

    // Before the claim expires nothing touches it; after, it is unconfirmed, not resent.
    expect((await sender().runOnce()).sent).toBe(0);
    expect((await rowOf(m.id)).state).toBe('sending');
    s.clock.advance(s.config.notifications.claimMs + 1);
    expect(await sender().runOnce()).toMatchObject({ sent: 0 });
    const row = await rowOf(m.id);
    expect(row.state).toBe('unconfirmed');
    expect(row.last_error).toContain('claim expired while sending');
    expect((await sender().runOnce()).sent).toBe(0);
    expect(smtp.to(m.to)).toHaveLength(1);

    await operator.call('resendMail', { id: m.id });
    expect((await sender().runOnce()).sent).toBe(1);
    expect(smtp.to(m.to)).toHaveLength(2);
    expect((await rowOf(m.id)).state).toBe('sent');
    // A sent mail is not resent; a missing one is 12.
    await expectErr(operator.call('resendMail', { id: m.id }), 271);
    await expectErr(operator.call('resendMail', { id: 999_999_999 }), 12);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'usr', 'before', 'after'])
      .where('entity', '=', 'mail_queue')
      .where('entity_id', '=', String(m.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'resendMail', usr: 'operator' });
    expect(JSON.parse(audit[0]!.before!)).toMatchObject({ state: 'unconfirmed', recipient: m.to });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('a claim that expired before sending started is taken over and sent once; a failed mail can be resent', async () => {
    const m = await enqueue('claimed');
    await sql`update mail_queue set state = 'claimed', claim_token = 'dead', claim_until = ${s.clock.now() - 1}, attempts = 1
      where id = ${m.id}`.execute(s.ctx.db);
    expect((await sender().runOnce()).sent).toBe(1);
    expect(await rowOf(m.id)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(smtp.to(m.to)).toHaveLength(1);

    const f = await enqueue('refused');
    smtp.rules.set(f.to, { rcpt: 550 });
    await sender().runOnce();
    expect((await rowOf(f.id)).state).toBe('failed');
    smtp.rules.delete(f.to);
    await operator.call('resendMail', { id: f.id });
    expect((await sender().runOnce()).sent).toBe(1);
    expect(smtp.to(f.to)).toHaveLength(1);
  });

  it('retention: mails sent more than MAIL_RETENTION_DAYS ago are pruned by the sender, nothing else', async () => {
    const days = s.config.notifications.retentionDays;
    expect(days).toBe(30);
    const old = await enqueue('old');
    const recent = await enqueue('recent');
    const unsent = await enqueue('unsent');
    const now = s.clock.now();
    await sql`update mail_queue set state = 'sent', sent_at = ${now - (days * 86_400_000 + 60_000)} where id = ${old.id}`.execute(s.ctx.db);
    await sql`update mail_queue set state = 'sent', sent_at = ${now - (days * 86_400_000 - 60_000)} where id = ${recent.id}`.execute(s.ctx.db);
    await sql`update mail_queue set state = 'failed', created_at = ${now - 90 * 86_400_000} where id = ${unsent.id}`.execute(s.ctx.db);
    const { pruned } = await sender().runOnce();
    expect(pruned).toBeGreaterThanOrEqual(1);
    const left = await s.ctx.db.selectFrom('mail_queue').select('id').where('id', 'in', [old.id, recent.id, unsent.id]).orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual([recent.id, unsent.id]);
  });
});
