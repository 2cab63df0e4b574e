import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 12 (branding): the platform notice per client language (`getTask`) and the contact info
 * per host (`consultParam/getParam`), both written by the operator. The look and options of each
 * host live in the branding file (configuration), not here.
 */
export function branding(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('platform_notices'))
        /** 1 Chinese, 2 every other language (getTask `client_language`). */
        .addColumn('client_language', 'integer', (c) => c.notNull().unique())
        .addColumn('msg_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_by', 'integer')
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('consult_params')
        /** Host name; '' = every host without a row of its own. */
        .addColumn('host', 'text', (c) => c.primaryKey())
        .addColumn('phone_num', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('wechat', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('english_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_by', 'integer')
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('consult_params').execute();
      await db.schema.dropTable('platform_notices').execute();
    },
  };
}
