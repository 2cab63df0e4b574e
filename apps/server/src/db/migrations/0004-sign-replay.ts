import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Sign replay refusal (wire-protocol.md §4a): `seen_signs` rows now carry their own expiry, so a
 * strict-policy sign is kept until its salt has left the salt window and a state-changing sign
 * for the replay window; rows past `expires_at` are pruned. Existing rows (expires_at 0) are
 * pruned on the next insert.
 */
export function signReplay(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('seen_signs')
        .addColumn('expires_at', d.bigint, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('seen_signs_expires_idx').on('seen_signs').column('expires_at').execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
