import { LOCALES } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { alarmDescription } from './alarm-text.js';
import { DIGEST_MAX_ROWS, renderAlarmMail, type AlarmEvent } from './alarm-mail.js';
import { MAIL_TEXTS, type MailTexts } from './mail-texts.js';
import { classifySmtpFailure, MailSender, type MailTransport } from './mail-sender.js';
import type { MailQueueRepository, MailRowDb } from './mail-queue.repository.js';
import { loadNotificationsConfig, redactSmtpUrl, retryDelayMs } from './notifications.config.js';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('mail texts', () => {
  it('every locale has every text, with the placeholders of the English one, translated', () => {
    const en = MAIL_TEXTS.en_US;
    for (const locale of LOCALES) {
      const t = MAIL_TEXTS[locale];
      for (const key of Object.keys(en) as Array<keyof MailTexts>) {
        const v = t[key];
        const e = en[key];
        if (Array.isArray(v)) {
          expect(v, `${locale}.${key}`).toHaveLength((e as string[]).length);
          for (const x of v) expect(x.trim(), `${locale}.${key}`).not.toBe('');
        } else {
          expect((v as string).trim(), `${locale}.${key}`).not.toBe('');
          expect(placeholders(v as string), `${locale}.${key}`).toEqual(placeholders(e as string));
        }
      }
      if (locale === 'en_US') continue;
      // Real translations: the sentences differ from English in every language.
      for (const key of ['intro', 'footer', 'viewAll', 'subjectDigest', 'more'] as const) {
        expect(t[key], `${locale}.${key}`).not.toBe(en[key]);
      }
    }
  });
});

const event = (over: Partial<AlarmEvent> = {}): AlarmEvent => ({
  kind: 'raised',
  alarmId: 7,
  level: 2,
  code: 2,
  description: 'Over temperature',
  devcode: 2341,
  devtype: 512,
  device: 'Roof <inverter>',
  sn: 'SN1',
  pn: 'PN1',
  plantId: 1,
  plantName: 'Home & "Garden"',
  tz: 3600,
  startedAt: Date.UTC(2026, 5, 15, 4, 0, 0),
  endedAt: null,
  ...over,
});

describe('alarm mails', () => {
  it('translates alarm descriptions from the definitions at read time', () => {
    expect(alarmDescription({ level: 2, code: 2, description: 'stored text', devcode: 2341 }, 'de_DE')).toBe('Übertemperatur');
    expect(alarmDescription({ level: 2, code: 2, description: 'stored text', devcode: 2341 }, 'en_US')).toBe('Over temperature');
    // A code the definition does not know: the lists' translated wording, never the stored English.
    expect(alarmDescription({ level: 1, code: 9999, description: 'Something odd', devcode: 2341 }, 'de_DE')).toBe(
      'Unbekannter Alarmcode 9999',
    );
    expect(alarmDescription({ level: 3, code: 263, description: 'Datalogger offline', devcode: null }, 'fr_FR')).toBe(
      'Enregistreur hors ligne',
    );
  });

  it('one event names the alarm; times in the plant timezone; HTML is escaped', () => {
    const m = renderAlarmMail([event()], { email: 'a@example.com', locale: 'en_US', role: 0 }, 'https://x.example');
    expect(m.subject).toBe('[Fault] Over temperature – Home & "Garden"');
    expect(m.text).toContain('Occurred: 2026-06-15 05:00:00 (UTC+01:00)');
    expect(m.text).toContain('View alarm: https://x.example/generalNew/alarm?id=7');
    expect(m.html).toContain('Roof &lt;inverter&gt; (PN1)');
    expect(m.html).toContain('Home &amp; &quot;Garden&quot;');
    expect(m.html).not.toContain('<inverter>');
    const admin = renderAlarmMail([event({ kind: 'cleared', endedAt: Date.UTC(2026, 5, 15, 5) })], { email: 'a@example.com', locale: 'en_US', role: 2 }, 'https://x.example');
    expect(admin.subject).toBe('Cleared: Over temperature – Home & "Garden"');
    expect(admin.text).toContain('https://x.example/adminNew/alarm?id=7');
    expect(admin.text).toContain('Ended: 2026-06-15 06:00:00 (UTC+01:00)');
  });

  it('a digest lists at most DIGEST_MAX_ROWS events and counts the rest', () => {
    const events = Array.from({ length: DIGEST_MAX_ROWS + 5 }, (_, i) => event({ alarmId: i + 1, plantId: 1 + (i % 2) }));
    const m = renderAlarmMail(events, { email: 'a@example.com', locale: 'en_US', role: 0 }, 'https://x.example');
    expect(m.subject).toBe(`${DIGEST_MAX_ROWS + 5} alarm events at 2 plant(s)`);
    expect(m.text.match(/View alarm:/g)).toHaveLength(DIGEST_MAX_ROWS);
    expect(m.text).toContain('… and 5 more');
  });
});

describe('notification config', () => {
  it('retries back off exponentially up to the cap; SMTP passwords are redacted', () => {
    const cfg = { retryBaseMs: 30_000, retryMaxMs: 3_600_000 };
    expect([1, 2, 3, 4].map((a) => retryDelayMs(cfg, a))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(cfg, 20)).toBe(3_600_000);
    expect(redactSmtpUrl('smtp://user:s3cret@mail.example:587')).toBe('smtp://user:***@mail.example:587');
    expect(() => loadNotificationsConfig({ SMTP_URL: 'http://x' }, 8080)).toThrow();
    expect(loadNotificationsConfig({}, 9090).publicUrl).toBe('http://localhost:9090');
    expect(loadNotificationsConfig({ PUBLIC_URL: 'https://p.example/' }, 1).publicUrl).toBe('https://p.example');
  });
});

/** An in-memory queue with the repository's claim semantics. */
function fakeQueue(rows: MailRowDb[]) {
  return {
    expireSending: (now: number) => {
      const gone = rows.filter((r) => r.state === 'sending' && (r.claim_until ?? 0) <= now);
      for (const r of gone) Object.assign(r, { state: 'unconfirmed', last_error: 'claim expired while sending' });
      return Promise.resolve(gone.map((r) => r.id));
    },
    claim: (token: string, now: number, claimMs: number) => {
      const due = rows.filter((r) => (r.state === 'queued' && r.next_attempt_at <= now) || (r.state === 'claimed' && (r.claim_until ?? 0) <= now));
      for (const r of due) Object.assign(r, { state: 'claimed', claim_token: token, claim_until: now + claimMs, attempts: r.attempts + 1 });
      return Promise.resolve(due.map((r) => ({ ...r })));
    },
    startSending: (id: number, token: string, now: number, claimMs: number) => {
      const r = rows.find((x) => x.id === id && x.claim_token === token && x.state === 'claimed');
      if (r) Object.assign(r, { state: 'sending', claim_until: now + claimMs });
      return Promise.resolve(r !== undefined);
    },
    markSent: (id: number, token: string, now: number, response: string) => {
      const r = rows.find((x) => x.id === id && x.claim_token === token);
      if (r) Object.assign(r, { state: 'sent', sent_at: now, smtp_response: response, claim_token: null });
      return Promise.resolve(r !== undefined);
    },
    markFailed: (id: number, token: string, error: string, next: { state: string; at: number }) => {
      const r = rows.find((x) => x.id === id && x.claim_token === token);
      if (r) Object.assign(r, { state: next.state, next_attempt_at: next.at, last_error: error, claim_token: null });
      return Promise.resolve();
    },
    pruneSent: () => Promise.resolve(0),
  } as unknown as MailQueueRepository;
}

const row = (id: number): MailRowDb => ({
  id,
  dedupe_key: `k${id}`,
  kind: 'alarm',
  account_id: null,
  recipient: `r${id}@example.com`,
  locale: 'en_US',
  subject: 's',
  body_text: 't',
  body_html: 'h',
  attachments: null,
  state: 'queued',
  attempts: 0,
  next_attempt_at: 0,
  claim_token: null,
  claim_until: null,
  last_error: '',
  smtp_response: '',
  message_id: '',
  created_at: 0,
  sent_at: null,
});

describe('mail sender', () => {
  it('a permanent refusal (5xx) fails at once; temporary errors retry until maxAttempts', async () => {
    const rows = [row(1), row(2)];
    let now = 1000;
    const transport: MailTransport = {
      send: (m) =>
        Promise.reject(
          m.to === 'r1@example.com'
            ? Object.assign(new Error('550 no such user'), { responseCode: 550 })
            : new Error('connect ECONNREFUSED smtp://u:pw@h:25'),
        ),
      close: () => undefined,
    };
    const config = { ...loadNotificationsConfig({}, 8080), smtpUrl: 'smtp://u:pw@h:25', maxAttempts: 3, retryBaseMs: 10, retryMaxMs: 100 };
    const sender = new MailSender({ repo: fakeQueue(rows), config, now: () => now, transport, log: { warn: () => undefined, info: () => undefined } });
    await sender.runOnce();
    expect(rows.map((r) => [r.state, r.attempts])).toEqual([
      ['failed', 1],
      ['queued', 1],
    ]);
    expect(rows[1]!.last_error).toBe('connect ECONNREFUSED smtp://u:***@h:25');
    expect(rows[1]!.next_attempt_at).toBe(1010);
    await sender.runOnce(); // not due yet
    expect(rows[1]!.attempts).toBe(1);
    now = 1010;
    await sender.runOnce();
    expect(rows[1]!.next_attempt_at).toBe(1030);
    now = 1030;
    await sender.runOnce();
    expect([rows[1]!.state, rows[1]!.attempts]).toEqual(['failed', 3]);
  });

  it('classifies by nodemailer\'s fields: refusals are certain (4xx retry, 5xx give up), a drop after the body is unconfirmed', async () => {
    const e = (code: string, command: string, responseCode?: number) => Object.assign(new Error(code), { code, command, responseCode });
    expect(classifySmtpFailure(e('ESOCKET', 'CONN'), false)).toBe('retry'); // connection refused
    expect(classifySmtpFailure(e('EENVELOPE', 'RCPT TO', 550), false)).toBe('permanent');
    expect(classifySmtpFailure(e('EENVELOPE', 'MAIL FROM', 451), false)).toBe('retry');
    expect(classifySmtpFailure(e('EAUTH', 'AUTH PLAIN', 535), false)).toBe('permanent');
    expect(classifySmtpFailure(e('EMESSAGE', 'DATA', 451), true)).toBe('retry'); // answer to the final dot
    expect(classifySmtpFailure(e('EMESSAGE', 'DATA', 550), true)).toBe('permanent');
    expect(classifySmtpFailure(e('ECONNECTION', 'CONN'), true)).toBe('unconfirmed'); // dropped after the body
    expect(classifySmtpFailure(e('ETIMEDOUT', 'CONN'), true)).toBe('unconfirmed');
    expect(classifySmtpFailure(e('ETIMEDOUT', 'CONN'), false)).toBe('retry'); // e.g. no greeting

    // The sender: an ambiguous rejection → unconfirmed with the reason, never claimed again.
    const rows = [row(1)];
    let sends = 0;
    const transport: MailTransport = {
      send: () => {
        sends += 1;
        return Promise.reject(Object.assign(e('ECONNECTION', 'CONN'), { message: 'Connection closed unexpectedly', ambiguous: true }));
      },
      close: () => undefined,
    };
    const config = { ...loadNotificationsConfig({}, 8080), retryBaseMs: 0 };
    const sender = new MailSender({ repo: fakeQueue(rows), config, now: () => 5000, transport, log: { warn: () => undefined, info: () => undefined } });
    expect(await sender.runOnce()).toMatchObject({ sent: 0, unconfirmed: 1 });
    expect(rows[0]!.state).toBe('unconfirmed');
    expect(rows[0]!.last_error).toMatch(/^delivery unknown, not resent automatically: Connection closed unexpectedly \(ECONNECTION CONN\)/);
    await sender.runOnce();
    expect(sends).toBe(1);
  });
});
