import { sql, type Selectable } from 'kysely';
import { MAIL_RESENDABLE_STATES, type MailState } from '@sunwatch/protocol';
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
   * Claims up to `limit` due mails for this run (→ `claimed`): queued ones whose next attempt is
   * due, and `claimed` ones whose claim expired (their sender vanished before it handed them to
   * SMTP, so they certainly were not sent). One UPDATE; on PostgreSQL a row claimed concurrently
   * fails the re-checked state condition and is skipped. `sending` rows are never claimed.
   */
  async claim(token: string, now: number, claimMs: number, limit: number): Promise<MailRowDb[]> {
    const due = this.db
      .selectFrom('mail_queue')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'claimed'), eb('claim_until', '<=', now)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit);
    await this.db
      .updateTable('mail_queue')
      .set((eb) => ({
        state: 'claimed',
        claim_token: token,
        claim_until: now + claimMs,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', due)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'claimed'), eb('claim_until', '<=', now)]),
        ]),
      )
      .execute();
    return this.db.selectFrom('mail_queue').selectAll().where('claim_token', '=', token).where('state', '=', 'claimed').orderBy('id').execute();
  }

  /** `claimed` → `sending` right before the SMTP transaction; false when the claim was lost. */
  async startSending(id: number, token: string, now: number, claimMs: number): Promise<boolean> {
    const res = await this.db
      .updateTable('mail_queue')
      .set({ state: 'sending', claim_until: now + claimMs })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .where('state', '=', 'claimed')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * Rows left `sending` past their claim: their sender vanished after it may have handed the mail
   * to the SMTP server. → `unconfirmed` with the reason (the token stays, so that a sender that is
   * merely slow still records its outcome). Returns their ids.
   */
  async expireSending(now: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('mail_queue')
      .select('id')
      .where('state', '=', 'sending')
      .where('claim_until', '<=', now)
      .execute();
    if (rows.length === 0) return [];
    await this.db
      .updateTable('mail_queue')
      .set({ state: 'unconfirmed', last_error: 'delivery unknown, not resent automatically: the sender stopped during the SMTP transaction (claim expired while sending)' })
      .where('id', 'in', rows.map((r) => r.id))
      .where('state', '=', 'sending')
      .where('claim_until', '<=', now)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Marks a mail sent with the SMTP answer (from `sending`, or `unconfirmed` when its claim
   * expired meanwhile); false when the claim was lost (the operator requeued it).
   */
  async markSent(id: number, token: string, now: number, response: string, messageId: string): Promise<boolean> {
    const res = await this.db
      .updateTable('mail_queue')
      .set({ state: 'sent', sent_at: now, smtp_response: response.slice(0, 1000), message_id: messageId, claim_token: null, claim_until: null, last_error: '' })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * A failed attempt: back to `queued` for `next.at`, `failed` for good, or `unconfirmed`
   * (delivery unknown; the claim is released, nothing sends it again until the operator says so).
   */
  async markFailed(id: number, token: string, error: string, next: { state: 'queued' | 'failed' | 'unconfirmed'; at: number }): Promise<void> {
    await this.db
      .updateTable('mail_queue')
      .set({ state: next.state, next_attempt_at: next.at, last_error: error.slice(0, 1000), claim_token: null, claim_until: null })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  async get(id: number): Promise<MailRowDb | undefined> {
    return this.db.selectFrom('mail_queue').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The operator's resend: an `unconfirmed` or `failed` mail back to `queued`, due now, attempts
   * from zero, claim released (a late outcome of an old sender no longer counts). False when the
   * mail is in another state (checked in the UPDATE).
   */
  async requeue(id: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('mail_queue')
      .set({ state: 'queued', next_attempt_at: now, attempts: 0, claim_token: null, claim_until: null })
      .where('id', '=', id)
      .where('state', 'in', [...MAIL_RESENDABLE_STATES])
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Deletes up to `limit` mails sent before `cutoff`; returns how many. */
  async pruneSent(cutoff: number, limit: number): Promise<number> {
    const ids = this.db
      .selectFrom('mail_queue')
      .select('id')
      .where('state', '=', 'sent')
      .where('sent_at', '<', cutoff)
      .orderBy('sent_at')
      .limit(limit);
    const res = await this.db.deleteFrom('mail_queue').where('id', 'in', ids).executeTakeFirst();
    return Number(res.numDeletedRows);
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
