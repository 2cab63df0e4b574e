import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Alarms (issue 11):
 * - `alarms` gains who processed an alarm and when (`handled_by`, `handled_usr`, `handled_at`;
 *   `handled` stays the 0/1 status), and an index on `started_at` for the newest-first lists of
 *   wide scopes (operator, manufacturers; per datalogger the 0002 index serves);
 * - `alarm_rules`: an account's alarm filter rules (alarms/rules.ts of the protocol): lists as
 *   JSON text, time slot "HH:MM".
 */
export function alarms(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('alarms').addColumn('handled_by', 'integer').execute();
      await db.schema
        .alterTable('alarms')
        .addColumn('handled_usr', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('alarms').addColumn('handled_at', d.bigint).execute();
      await db.schema.createIndex('alarms_started_idx').on('alarms').columns(['started_at']).execute();
      await d
        .addIdColumn(db.schema.createTable('alarm_rules'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('stime', 'varchar(5)', (c) => c.notNull().defaultTo(''))
        .addColumn('etime', 'varchar(5)', (c) => c.notNull().defaultTo(''))
        .addColumn('atype', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('pids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('devices', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('levels', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('codes', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('description', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('mute', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('hide', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('alarm_rules_account_idx')
        .on('alarm_rules')
        .columns(['account_id', 'name'])
        .unique()
        .execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
