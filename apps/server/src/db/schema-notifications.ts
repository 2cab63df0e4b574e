import type { Generated } from 'kysely';

/**
 * Notification tables (issue 11, migration 0015): e-mail push subscriptions, the durable mail
 * queue, the alarm-scan cursor and the alarms whose end is still to be announced.
 */

/** An account's e-mail push subscription (spec §3 "Email push subscription"). */
export interface EmailPushTable {
  id: Generated<number>;
  account_id: number;
  email: string;
  /** Bit n set = ALARM_LEVEL n (0 warning, 1 error, 2 fault, 3 offline). */
  alarm_levels: number;
  /** Bits: 1 daily, 2 monthly, 4 yearly. */
  report_types: number;
  /** Language of the mails (one of LOCALES). */
  locale: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export interface EmailPushPlantsTable {
  push_id: number;
  project_id: number;
}

/** One outgoing mail (see MAIL_STATES of the protocol). */
export interface MailQueueTable {
  id: Generated<number>;
  /** Makes an enqueue idempotent: a second enqueue with the same key is a no-op. */
  dedupe_key: string;
  /** What it is: 'alarm'. */
  kind: string;
  account_id: number | null;
  recipient: string;
  locale: string;
  subject: string;
  body_text: string;
  body_html: string;
  /** JSON array of attachment references ({ filename, exportFileId }) or null. */
  attachments: string | null;
  state: string;
  attempts: number;
  next_attempt_at: number;
  /** The sender run that holds the row while sending (`sending`), and until when. */
  claim_token: string | null;
  claim_until: number | null;
  last_error: string;
  smtp_response: string;
  message_id: string;
  created_at: number;
  sent_at: number | null;
}

/** Named cursors of background scans (the last alarm id the notifier has seen). */
export interface NotificationCursorsTable {
  name: string;
  value: number;
}

/** Alarms announced as raised whose end is still to be announced. */
export interface AlarmNoticesTable {
  alarm_id: number;
  created_at: number;
}

export interface NotificationTables {
  email_push: EmailPushTable;
  email_push_plants: EmailPushPlantsTable;
  mail_queue: MailQueueTable;
  notification_cursors: NotificationCursorsTable;
  alarm_notices: AlarmNoticesTable;
}
