import type { MailQueueRepository } from '../notifications/mail-queue.repository.js';

/** Sends one SMS. A real gateway implements this; the default writes to the outbox. */
export interface SmsProvider {
  readonly name: string;
  send(sms: { to: string; text: string; locale: string; accountId: number | null; dedupeKey: string }): Promise<void>;
}

/**
 * The default SMS provider: the message lands in the mail outbox (`mail_queue`, kind `sms`, state
 * `outbox`, the phone number as recipient), where the operator reads it with queryMailOutbox and
 * the tests read it. Never handed to SMTP (the sender only claims `queued` rows).
 */
export class OutboxSmsProvider implements SmsProvider {
  readonly name = 'outbox';
  constructor(
    private readonly queue: MailQueueRepository,
    private readonly now: () => number,
  ) {}

  async send(sms: { to: string; text: string; locale: string; accountId: number | null; dedupeKey: string }): Promise<void> {
    await this.queue.enqueue(
      {
        dedupeKey: sms.dedupeKey,
        kind: 'sms',
        accountId: sms.accountId,
        recipient: sms.to,
        locale: sms.locale,
        subject: 'SMS',
        text: sms.text,
        html: '',
      },
      'outbox',
      this.now(),
    );
  }
}
