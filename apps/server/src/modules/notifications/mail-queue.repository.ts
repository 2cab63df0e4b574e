import { sql, type Selectable } from 'kysely';
import type { MailState } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import type { MailQueueTable } from '../../db/schema-notifications.js';
import { currentDb } from '../../db/transaction.js';
import { likePattern } from '../../db/like.js';

export type MailRowDb = Selectable<MailQueueTable>;

export interface NewMail {
  dedupeKey: string;
  kind: string;
  accountId: number | null;
  recipient: string;
  locale: string;
  subject: string;
  text: string;
  html: string;
  attachments?: Array<{ filename: string; exportFileId: number }>;
}

/**
 * The durable mail queue (table `mail_queue`). Enqueue is idempotent by dedupe key; senders claim
 * due rows atomically (one UPDATE naming a fresh claim token), and record the SMTP answer in the
 * same UPDATE that marks the row sent, guarded by that token.
 */
export class MailQueueRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /** Inserts the mail unless one with its dedupe key exists; true when inserted. */
  async enqueue(mail: NewMail, state: 'queued' | 'outbox', now: number): Promise<boolean> {
    const res = await this.db
      .insertInto('mail_queue')
      .values({
        dedupe_key: mail.dedupeKey,
        kind: mail.kind,
        account_id: mail.accountId,
        recipient: mail.recipient,
        locale: mail.locale,
        subject: mail.subject,
        body_text: mail.text,
        body_html: mail.html,
        attachments: mail.attachments && mail.attachments.length > 0 ? JSON.stringify(mail.attachments) : null,
        state,
        attempts: 0,
        next_attempt_at: now,
        claim_token: null,
        claim_until: null,
        last_error: '',
        smtp_response: '',
        message_id: '',
        created_at: now,
        sent_at: null,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Claims up to `limit` due mails for this run: queued ones whose next attempt is due, and
   * `sending` ones whose claim expired (their sender died). One UPDATE; on PostgreSQL a row
   * claimed concurrently fails the re-checked state condition and is skipped.
   */
  async claim(token: string, now: number, claimMs: number, limit: number): Promise<MailRowDb[]> {
    const due = this.db
      .selectFrom('mail_queue')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('claim_until', '<=', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit);
    await this.db
      .updateTable('mail_queue')
      .set((eb) => ({
        state: 'sending',
        claim_token: token,
        claim_until: now + claimMs,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', due)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('claim_until', '<=', now)]),
        ]),
      )
      .execute();
    return this.db.selectFrom('mail_queue').selectAll().where('claim_token', '=', token).orderBy('id').execute();
  }

  /** Marks a claimed mail sent with the SMTP answer; false when the claim was lost meanwhile. */
  async markSent(id: number, token: string, now: number, response: string, messageId: string): Promise<boolean> {
    const res = await this.db
      .updateTable('mail_queue')
      .set({ state: 'sent', sent_at: now, smtp_response: response.slice(0, 1000), message_id: messageId, claim_token: null, claim_until: null, last_error: '' })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** A failed attempt: back to `queued` for `nextAttemptAt`, or `failed` for good. */
  async markFailed(id: number, token: string, error: string, next: { state: 'queued' | 'failed'; at: number }): Promise<void> {
    await this.db
      .updateTable('mail_queue')
      .set({ state: next.state, next_attempt_at: next.at, last_error: error.slice(0, 1000), claim_token: null, claim_until: null })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  async list(p: { state?: MailState | undefined; to?: string | undefined; page: number; pagesize: number }) {
    let q = this.db.selectFrom('mail_queue');
    if (p.state) q = q.where('state', '=', p.state);
    if (p.to) q = q.where(sql<boolean>`lower(recipient) like ${likePattern(p.to)} escape '\\'`);
    const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.pagesize)
      .offset(p.page * p.pagesize)
      .execute();
    return { total, rows };
  }
}
