import type { Kysely, Migration } from 'kysely';

/**
 * Mail sent exactly once (issue 11, s22-ml). The queue's new states (`claimed`, `unconfirmed`)
 * are text values of `mail_queue.state`, no column changes; this adds the index of the sender's
 * retention prune (`state = 'sent' and sent_at < cutoff`), which otherwise scans the whole queue.
 */
export function mailOnce(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.createIndex('mail_queue_sent_idx').on('mail_queue').columns(['state', 'sent_at']).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
