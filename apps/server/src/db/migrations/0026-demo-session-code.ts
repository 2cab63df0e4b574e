import type { Kysely, Migration } from 'kysely';

/**
 * Issue 12, last gaps (session 26): every experience code opens the same showcase account, so a
 * demo session remembers the code that opened it; expiring one code ends its own sessions only,
 * not those of the other codes' visitors.
 */
export function demoSessionCode(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sessions').addColumn('inv_code_id', 'integer').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('sessions').dropColumn('inv_code_id').execute();
    },
  };
}
