import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { NotificationsConfig } from './notifications.config.js';
import { redactSmtpUrl, retryDelayMs } from './notifications.config.js';
import type { MailQueueRepository, MailRowDb } from './mail-queue.repository.js';

/** What a transport needs to send one mail. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per queued mail: a resend after a crash carries the same Message-ID. */
  messageId: string;
  attachments: Array<{ filename: string; content: Buffer }>;
}

export interface MailTransport {
  /**
   * Resolves with the server's answer once it accepted the mail; rejects otherwise. A rejection
   * whose delivery is unknown (the body was sent, no final answer came) carries `ambiguous: true`.
   */
  send(mail: OutgoingMail): Promise<{ response: string }>;
  close(): void;
}

/** What nodemailer puts on its errors (SMTPConnection `_formatError`). */
interface SmtpErrorFields {
  code?: unknown;
  command?: unknown;
  responseCode?: unknown;
  ambiguous?: unknown;
}

/**
 * How a failed attempt ended:
 * - `retry`: certainly not delivered, may succeed later (connection refused or dropped before
 *   the body, greeting / AUTH / MAIL FROM / RCPT TO / DATA refused with 4xx, 4xx to the final dot);
 * - `permanent`: certainly not delivered and will not be (a 5xx answer at any step);
 * - `unconfirmed`: maybe delivered: the connection dropped or timed out after the whole body
 *   was handed over, before the server's final answer. Never resent automatically.
 *
 * `bodySent` is what the transport saw; an error that is the server's own answer to the final
 * dot (command `DATA` with a response code) is certain whatever `bodySent` says.
 */
export function classifySmtpFailure(err: unknown, bodySent: boolean): 'retry' | 'permanent' | 'unconfirmed' {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SmtpErrorFields;
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  if (bodySent && !(e.command === 'DATA' && responseCode !== undefined)) return 'unconfirmed';
  if (responseCode !== undefined && responseCode >= 500 && responseCode < 600) return 'permanent';
  return 'retry';
}

/** An SMTP error that will not get better by retrying (5xx). */
export function isPermanentSmtpError(err: unknown): boolean {
  return classifySmtpFailure(err, false) === 'permanent';
}

/** The class a transport's rejection asks for (`ambiguous` set by smtpTransport, see there). */
export function failureOf(err: unknown): 'retry' | 'permanent' | 'unconfirmed' {
  const ambiguous = typeof err === 'object' && err !== null && (err as SmtpErrorFields).ambiguous === true;
  return classifySmtpFailure(err, ambiguous);
}

/**
 * Real SMTP through nodemailer (SMTP_URL: smtp://user:pass@host:port, smtps:// for TLS), one
 * connection per mail. The message is composed first (MailComposer) and handed to
 * SMTPConnection.send as a stream, which nodemailer pipes only after the server took DATA (354):
 * when that stream has ended the body is on its way, so a drop or timeout from then on is
 * `ambiguous` (the server may have accepted), before it the mail certainly was not delivered.
 */
export function smtpTransport(cfg: Pick<NotificationsConfig, 'smtpUrl' | 'smtpTimeoutMs'>): MailTransport {
  if (!cfg.smtpUrl) throw new Error('smtpTransport without SMTP_URL');
  const url = new URL(cfg.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const options: SMTPConnection.Options = {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    // smtp://host?tls=insecure accepts a self-signed certificate (a relay on the local network).
    ...(url.searchParams.get('tls') === 'insecure' ? { tls: { rejectUnauthorized: false } } : {}),
    connectionTimeout: cfg.smtpTimeoutMs,
    greetingTimeout: cfg.smtpTimeoutMs,
    socketTimeout: cfg.smtpTimeoutMs,
  };
  const auth = url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined;
  const open = new Set<SMTPConnection>();
  return {
    async send(mail) {
      const composed = new MailComposer({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        attachments: mail.attachments,
      }).compile();
      const envelope = composed.getEnvelope();
      const raw = await composed.build();
      let bodySent = false;
      const body = Readable.from([raw]);
      body.once('end', () => {
        bodySent = true;
      });
      const conn = new SMTPConnection(options);
      open.add(conn);
      try {
        return await new Promise<{ response: string }>((resolve, reject) => {
          let done = false;
          const fail = (err: unknown) => {
            if (done) return;
            done = true;
            const e = err instanceof Error ? err : new Error(String(err));
            reject(Object.assign(e, { ambiguous: bodySent && classifySmtpFailure(e, true) === 'unconfirmed' }));
          };
          conn.once('error', fail);
          conn.once('end', () => fail(Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION', command: 'CONN' })));
          const send = () =>
            conn.send(envelope, body, (err, info) => {
              if (err) return fail(err);
              if (done) return;
              done = true;
              resolve({ response: String(info.response ?? '') });
            });
          conn.connect((err) => {
            if (err) return fail(err);
            if (auth && (conn as unknown as { allowsAuth?: boolean }).allowsAuth) conn.login(auth, (e) => (e ? fail(e) : send()));
            else send();
          });
        });
      } finally {
        open.delete(conn);
        conn.quit();
        conn.close();
      }
    },
    close: () => {
      for (const c of open) c.close();
      open.clear();
    },
  };
}

/** Test hooks of the sender (a crash injected between the server's acceptance and the mark). */
export interface MailSenderHooks {
  /** Runs after the SMTP server accepted a mail, before it is marked sent; a throw ends the run. */
  afterAccepted?: (row: MailRowDb) => void | Promise<void>;
}

export interface MailSenderDeps {
  repo: MailQueueRepository;
  config: NotificationsConfig;
  now: () => number;
  /** Undefined without SMTP_URL: nothing is sent (mails are enqueued as `outbox`). */
  transport: MailTransport | undefined;
  /** Attachment contents by reference (export files); a missing one fails the attempt. */
  loadAttachment?: (ref: { filename: string; exportFileId: number }) => Promise<Buffer | undefined>;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** Mails claimed per run. */
const BATCH = 50;
/** Sent mails pruned per statement (the retention prune runs in slices). */
const PRUNE_SLICE = 1000;

/**
 * Sends the queue, each mail at most once without the operator's say:
 *
 * 1. claim a batch of due mails (`queued` → `claimed`, with a token and expiry; `claimed` rows of
 *    a vanished sender are taken over: nothing of them reached SMTP);
 * 2. per mail, `claimed` → `sending` (guarded by the token) right before the SMTP transaction;
 * 3. the outcome: `sent` with the server's answer and Message-ID; a certain failure → `queued`
 *    with exponential back-off (or `failed` after a 5xx or `maxAttempts`); an ambiguous one (the
 *    body went out, no final answer) → `unconfirmed` with the reason.
 *
 * A row still `sending` when its claim expired had a sender that vanished mid-transaction: it
 * becomes `unconfirmed` (the repository does it before each claim), never resent automatically;
 * the operator's resendMail requeues it on purpose. The token stays on it, so a slow sender that
 * does get its answer still records `sent`.
 */
export class MailSender {
  private hooks: MailSenderHooks = {};
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly d: MailSenderDeps) {}

  get enabled(): boolean {
    return this.d.transport !== undefined;
  }

  /** Tests: inject a crash between the server's acceptance and the mark (see MailSenderHooks). */
  useHooks(hooks: MailSenderHooks): void {
    this.hooks = hooks;
  }

  /** One pass over the due mails; returns how many were sent and how many failed. */
  async runOnce(): Promise<{ sent: number; failed: number; unconfirmed: number; pruned: number }> {
    const t = this.d.transport;
    if (!t) return { sent: 0, failed: 0, unconfirmed: 0, pruned: 0 };
    const pruned = await this.pruneIfDue();
    const expired = await this.d.repo.expireSending(this.d.now());
    if (expired.length > 0) this.d.log.warn({ mailIds: expired }, 'mail: sender vanished while sending; marked unconfirmed');
    let sent = 0;
    let failed = 0;
    let unconfirmed = 0;
    for (;;) {
      const token = crypto.randomBytes(12).toString('hex');
      const claimed = await this.d.repo.claim(token, this.d.now(), this.d.config.claimMs, BATCH);
      for (const row of claimed) {
        const outcome = await this.sendOne(t, row, token);
        if (outcome === 'sent') sent += 1;
        else if (outcome === 'unconfirmed') unconfirmed += 1;
        else if (outcome === 'failed') failed += 1;
      }
      if (claimed.length < BATCH) break;
    }
    return { sent, failed, unconfirmed, pruned };
  }

  /** Deletes mails sent more than `retentionDays` ago; at most once per `pruneEveryMs`. */
  async pruneIfDue(): Promise<number> {
    const now = this.d.now();
    if (now - this.lastPrune < this.d.config.pruneEveryMs) return 0;
    this.lastPrune = now;
    const cutoff = now - this.d.config.retentionDays * 86_400_000;
    let total = 0;
    for (;;) {
      const n = await this.d.repo.pruneSent(cutoff, PRUNE_SLICE);
      total += n;
      if (n < PRUNE_SLICE) break;
    }
    if (total > 0) this.d.log.info({ pruned: total, retentionDays: this.d.config.retentionDays }, 'mail: pruned sent mails');
    return total;
  }

  private messageIdOf(row: MailRowDb): string {
    return `<mail-${row.id}-${crypto.createHash('sha1').update(row.dedupe_key).digest('hex').slice(0, 16)}@sunwatch>`;
  }

  private redact(err: unknown): string {
    const cfg = this.d.config;
    const message = err instanceof Error ? err.message : String(err);
    const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; command?: unknown; responseCode?: unknown };
    const detail = [e.code, e.command, e.responseCode].filter((v) => typeof v === 'string' || typeof v === 'number').join(' ');
    const text = detail ? `${message} (${detail})` : message;
    return cfg.smtpUrl ? text.split(cfg.smtpUrl).join(redactSmtpUrl(cfg.smtpUrl)) : text;
  }

  private async sendOne(t: MailTransport, row: MailRowDb, token: string): Promise<'sent' | 'failed' | 'unconfirmed' | 'skipped'> {
    const cfg = this.d.config;
    const messageId = this.messageIdOf(row);
    const attachments: OutgoingMail['attachments'] = [];
    try {
      for (const ref of row.attachments ? (JSON.parse(row.attachments) as Array<{ filename: string; exportFileId: number }>) : []) {
        const content = await this.d.loadAttachment?.(ref);
        if (!content) throw Object.assign(new Error(`attachment ${ref.filename} is gone`), { responseCode: 550 });
        attachments.push({ filename: ref.filename, content });
      }
    } catch (err) {
      return this.certainFailure(row, token, err);
    }
    // Past this point the mail may reach the SMTP server: a vanished sender leaves it `sending`.
    if (!(await this.d.repo.startSending(row.id, token, this.d.now(), cfg.claimMs))) return 'skipped';
    let answer: { response: string };
    try {
      answer = await t.send({
        from: cfg.mailFrom,
        to: row.recipient,
        subject: row.subject,
        text: row.body_text,
        html: row.body_html,
        messageId,
        attachments,
      });
    } catch (err) {
      if (failureOf(err) === 'unconfirmed') {
        const reason = `delivery unknown, not resent automatically: ${this.redact(err)}`;
        await this.d.repo.markFailed(row.id, token, reason, { state: 'unconfirmed', at: this.d.now() });
        this.d.log.warn({ mailId: row.id, attempts: row.attempts, error: reason }, 'mail: unconfirmed');
        return 'unconfirmed';
      }
      return this.certainFailure(row, token, err);
    }
    // A crash here (the hook's throw stands for one) leaves the row `sending`: see expireSending.
    await this.hooks.afterAccepted?.(row);
    await this.d.repo.markSent(row.id, token, this.d.now(), answer.response, messageId);
    return 'sent';
  }

  private async certainFailure(row: MailRowDb, token: string, err: unknown): Promise<'failed'> {
    const cfg = this.d.config;
    const error = this.redact(err);
    const giveUp = failureOf(err) === 'permanent' || row.attempts >= cfg.maxAttempts;
    const at = this.d.now() + retryDelayMs(cfg, row.attempts);
    await this.d.repo.markFailed(row.id, token, error, { state: giveUp ? 'failed' : 'queued', at });
    this.d.log.warn({ mailId: row.id, attempts: row.attempts, giveUp, error }, 'mail: send failed');
    return 'failed';
  }

  close(): void {
    this.d.transport?.close();
  }
}
