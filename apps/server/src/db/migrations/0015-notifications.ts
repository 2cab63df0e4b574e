import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Notifications (issue 11):
 * - `email_push` + `email_push_plants`: e-mail push subscriptions of an account (spec §3);
 * - `mail_queue`: the durable outgoing mail queue (and the outbox without SMTP_URL);
 * - `notification_cursors`: the alarm notifier's watermark, started at the newest alarm so that
 *   existing alarms are never mailed after an upgrade;
 * - `alarm_notices`: alarms announced as raised whose end is still to be announced.
 */
export function notifications(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('email_push'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('alarm_levels', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('report_types', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en_US'))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('email_push_account_email_idx')
        .on('email_push')
        .columns(['account_id', 'email'])
        .unique()
        .execute();
      await db.schema
        .createTable('email_push_plants')
        .addColumn('push_id', 'integer', (c) => c.notNull().references('email_push.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('email_push_plants_pk', ['push_id', 'project_id'])
        .execute();
      await db.schema.createIndex('email_push_plants_project_idx').on('email_push_plants').column('project_id').execute();

      await d
        .addIdColumn(db.schema.createTable('mail_queue'))
        .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body_text', 'text', (c) => c.notNull())
        .addColumn('body_html', 'text', (c) => c.notNull())
        .addColumn('attachments', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', d.bigint, (c) => c.notNull())
        .addColumn('claim_token', 'text')
        .addColumn('claim_until', d.bigint)
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('smtp_response', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('message_id', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('sent_at', d.bigint)
        .execute();
      // The sender's claim scans (state, next attempt); the operator's list reads newest first.
      await db.schema.createIndex('mail_queue_due_idx').on('mail_queue').columns(['state', 'next_attempt_at']).execute();
      await db.schema.createIndex('mail_queue_created_idx').on('mail_queue').column('created_at').execute();

      await db.schema
        .createTable('notification_cursors')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', d.bigint, (c) => c.notNull())
        .execute();
      await sql`insert into notification_cursors (name, value)
        select 'alarm-raise', coalesce(max(id), 0) from alarms`.execute(db);

      await db.schema
        .createTable('alarm_notices')
        .addColumn('alarm_id', 'integer', (c) => c.primaryKey())
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
