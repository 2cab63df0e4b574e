import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 14, the operator's protocol pages:
 * - `datalogger_type_codes`: type code letter → datalogger type name, communication method (typeCode);
 * - `protocol_bindings`: devcodes a datalogger type code, PN prefix or PN range may report (protocolBinding);
 * - `device_devcode_changes`: a device's devcode history (protocolChange): samples before
 *   `from_ts` (the sample time after the last sample stored under the old devcode) decode with
 *   `old_devcode`.
 */
export function protocolBindings(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('datalogger_type_codes')
        .addColumn('code', 'varchar(1)', (c) => c.primaryKey())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('comm_method', 'varchar(32)', (c) => c.notNull())
        .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_by', 'varchar(64)')
        .execute();

      await d
        .addIdColumn(db.schema.createTable('protocol_bindings'))
        .addColumn('devcode', 'integer', (c) => c.notNull())
        .addColumn('scope', 'varchar(8)', (c) => c.notNull())
        .addColumn('type_code', 'varchar(1)', (c) => c.notNull().defaultTo(''))
        .addColumn('pn_from', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('pn_to', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('note', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_by', 'varchar(64)')
        .addUniqueConstraint('protocol_bindings_uq', ['devcode', 'scope', 'type_code', 'pn_from', 'pn_to'])
        .execute();

      await d
        .addIdColumn(db.schema.createTable('device_devcode_changes'))
        .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('pn', 'varchar(32)', (c) => c.notNull())
        .addColumn('sn', 'varchar(64)', (c) => c.notNull())
        .addColumn('devaddr', 'integer', (c) => c.notNull())
        .addColumn('old_devcode', 'integer', (c) => c.notNull())
        .addColumn('new_devcode', 'integer', (c) => c.notNull())
        .addColumn('reason', 'varchar(255)', (c) => c.notNull())
        .addColumn('changed_by', 'varchar(64)', (c) => c.notNull())
        .addColumn('changed_at', d.bigint, (c) => c.notNull())
        .addColumn('from_ts', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('device_devcode_changes_device_idx')
        .on('device_devcode_changes')
        .columns(['device_id', 'from_ts'])
        .execute();
      await db.schema
        .createIndex('device_devcode_changes_at_idx')
        .on('device_devcode_changes')
        .column('changed_at')
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('device_devcode_changes').execute();
      await db.schema.dropTable('protocol_bindings').execute();
      await db.schema.dropTable('datalogger_type_codes').execute();
    },
  };
}
