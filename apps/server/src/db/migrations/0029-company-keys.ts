import { createHash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/** SHA-256 hex of a company key: how the table finds a key without holding it. */
function keyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Issue 14, KEYList: company keys become managed data (spec §3 "Key entry"). The table is
 * rebuilt with an id, the entry's fields and the key as a digest plus a hint; the keys seeded
 * so far (COMPANY_KEYS) move over as seeded entries, enabled as they were.
 * Down recreates the old table empty: the digests cannot give the keys back (the next start
 * seeds COMPANY_KEYS again).
 */
export function companyKeys(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('company_keys_v2'))
        /** SHA-256 hex of the key (the key itself is never stored). */
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
        /** The key's last characters, for people to tell entries apart. */
        .addColumn('key_hint', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('company', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('version', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('client', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('domain', 'varchar(253)', (c) => c.notNull().defaultTo(''))
        .addColumn('contact', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('hostname', 'varchar(253)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        /** 1: created from COMPANY_KEYS at start. */
        .addColumn('seeded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        /** Account name of the last operator who changed the entry (null: the seed). */
        .addColumn('updated_by', 'varchar(64)')
        .execute();

      const old = (await db.selectFrom('company_keys').select(['key', 'name', 'enabled', 'created_at']).execute()) as {
        key: string;
        name: string;
        enabled: number;
        created_at: number | string;
      }[];
      for (const r of old) {
        const at = Number(r.created_at);
        await db
          .insertInto('company_keys_v2')
          .values({
            key_hash: keyDigest(r.key),
            key_hint: [...r.key].slice(-4).join(''),
            company: r.name.slice(0, 64),
            enabled: Number(r.enabled) === 1 ? 1 : 0,
            seeded: 1,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      await db.schema.dropTable('company_keys').execute();
      await db.schema.alterTable('company_keys_v2').renameTo('company_keys').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('company_keys').execute();
      await db.schema
        .createTable('company_keys')
        .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('vendor_code', 'varchar(64)')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();
    },
  };
}
