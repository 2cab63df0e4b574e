import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 14, per-manufacturer white-labelling: the custom domains (host name → the look and
 * options the entry page's domain check answers) become managed data. The branding file
 * (BRANDING_FILE) seeds its hosts at start, insert-only; its `default` entry and nodes stay
 * configuration. The logo and background are stored here (small, type-checked pictures) so
 * every server instance serves the same bytes without a shared folder.
 */
export function customDomains(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('custom_domains'))
        /** Lower-case host name without port. */
        .addColumn('host', 'varchar(253)', (c) => c.notNull().unique())
        /** The manufacturer account (role 1) the domain brands; null for a seeded host without one. */
        .addColumn('vendor_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
        .addColumn('title', 'varchar(60)', (c) => c.notNull().defaultTo(''))
        /** Comma-separated locales ('' = all). */
        .addColumn('languages', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('force_language', 'varchar(8)', (c) => c.notNull().defaultTo(''))
        .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('qr_login', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('phone_num', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'varchar(120)', (c) => c.notNull().defaultTo(''))
        .addColumn('wechat', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('english_name', 'varchar(120)', (c) => c.notNull().defaultTo(''))
        /** The pictures: bytes, detected type, SHA-256 hex (the URL's version). */
        .addColumn('logo', d.blob)
        .addColumn('logo_type', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('logo_sha', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('logo_size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('background', d.blob)
        .addColumn('background_type', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('background_sha', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('background_size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        /** 1: created from the branding file at start. */
        .addColumn('seeded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        /** Account name of the last operator who changed the domain (null: the seed). */
        .addColumn('updated_by', 'varchar(64)')
        .execute();
      await db.schema.createIndex('custom_domains_vendor').on('custom_domains').column('vendor_id').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('custom_domains').execute();
    },
  };
}
