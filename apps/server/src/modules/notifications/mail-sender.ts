import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
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
  /** Resolves with the server's answer once it accepted the mail; rejects otherwise. */
  send(mail: OutgoingMail): Promise<{ response: string }>;
  close(): void;
}

/** An SMTP error that will not get better by retrying (5xx). */
export function isPermanentSmtpError(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Real SMTP through nodemailer (SMTP_URL: smtp://user:pass@host:port, smtps:// for TLS). */
export function smtpTransport(cfg: Pick<NotificationsConfig, 'smtpUrl' | 'smtpTimeoutMs'>): MailTransport {
  if (!cfg.smtpUrl) throw new Error('smtpTransport without SMTP_URL');
  const url = new URL(cfg.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transporter = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    // smtp://host?tls=insecure accepts a self-signed certificate (a relay on the local network).
    ...(url.searchParams.get('tls') === 'insecure' ? { tls: { rejectUnauthorized: false } } : {}),
    connectionTimeout: cfg.smtpTimeoutMs,
    greetingTimeout: cfg.smtpTimeoutMs,
    socketTimeout: cfg.smtpTimeoutMs,
  });
  return {
    async send(mail) {
      const info = await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        attachments: mail.attachments,
      });
      return { response: String(info.response ?? '') };
    },
    close: () => transporter.close(),
  };
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

/**
 * Sends the queue: claims due mails, sends each, and records the outcome — sent with the SMTP
 * answer (in the UPDATE guarded by the claim), or back to `queued` with exponential back-off,
 * or `failed` after a permanent refusal (5xx) or `maxAttempts`. A mail is never sent by two
 * senders (claims are exclusive) and never again once marked sent. The one window left is a
 * crash between the server's acceptance and the UPDATE: the mail is sent again after its claim
 * expires, with the same Message-ID so that receiving systems can drop the duplicate.
 */
export class MailSender {
  constructor(private readonly d: MailSenderDeps) {}

  get enabled(): boolean {
    return this.d.transport !== undefined;
  }

  /** One pass over the due mails; returns how many were sent and how many failed. */
  async runOnce(): Promise<{ sent: number; failed: number }> {
    const t = this.d.transport;
    if (!t) return { sent: 0, failed: 0 };
    let sent = 0;
    let failed = 0;
    for (;;) {
      const token = crypto.randomBytes(12).toString('hex');
      const claimed = await this.d.repo.claim(token, this.d.now(), this.d.config.claimMs, BATCH);
      for (const row of claimed) {
        if (await this.sendOne(t, row, token)) sent += 1;
        else failed += 1;
      }
      if (claimed.length < BATCH) break;
    }
    return { sent, failed };
  }

  private async sendOne(t: MailTransport, row: MailRowDb, token: string): Promise<boolean> {
    const cfg = this.d.config;
    const messageId = `<mail-${row.id}-${crypto.createHash('sha1').update(row.dedupe_key).digest('hex').slice(0, 16)}@sunwatch>`;
    try {
      const attachments: OutgoingMail['attachments'] = [];
      for (const ref of row.attachments ? (JSON.parse(row.attachments) as Array<{ filename: string; exportFileId: number }>) : []) {
        const content = await this.d.loadAttachment?.(ref);
        if (!content) throw Object.assign(new Error(`attachment ${ref.filename} is gone`), { responseCode: 550 });
        attachments.push({ filename: ref.filename, content });
      }
      const answer = await t.send({
        from: cfg.mailFrom,
        to: row.recipient,
        subject: row.subject,
        text: row.body_text,
        html: row.body_html,
        messageId,
        attachments,
      });
      await this.d.repo.markSent(row.id, token, this.d.now(), answer.response, messageId);
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const error = cfg.smtpUrl ? message.split(cfg.smtpUrl).join(redactSmtpUrl(cfg.smtpUrl)) : message;
      const giveUp = isPermanentSmtpError(err) || row.attempts >= cfg.maxAttempts;
      const at = this.d.now() + retryDelayMs(cfg, row.attempts);
      await this.d.repo.markFailed(row.id, token, error, { state: giveUp ? 'failed' : 'queued', at });
      this.d.log.warn({ mailId: row.id, attempts: row.attempts, giveUp, error }, 'mail: send failed');
      return false;
    }
  }

  close(): void {
    this.d.transport?.close();
  }
}
