import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/** Projects (plants), dataloggers, devices, follows, samples, latest values, day rollups, alarms. */
export function telemetry(d: SqlDialect): Migration {
  const withoutRowid = d.engine === 'sqlite' ? sql`without rowid` : sql``;
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      const text = (n: number) => `varchar(${n})` as const;
      await d
        .addIdColumn(db.schema.createTable('projects'))
        .addColumn('owner_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', text(128), (c) => c.notNull())
        .addColumn('remark', text(1024), (c) => c.notNull().defaultTo(''))
        .addColumn('image', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('country', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('province', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('city', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('county', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('district', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('address', text(512), (c) => c.notNull().defaultTo(''))
        .addColumn('lon', d.real)
        .addColumn('lat', d.real)
        .addColumn('tz_offset', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('nominal_power', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('install_at', d.bigint)
        .addColumn('installer', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('design_company', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('energy_year_estimate', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('energy_offset', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('currency', text(8), (c) => c.notNull().defaultTo('EUR'))
        .addColumn('unit_profit', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_buy', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_sell', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_use', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('coal_factor', d.real, (c) => c.notNull().defaultTo(0.4))
        .addColumn('co2_factor', d.real, (c) => c.notNull().defaultTo(0.997))
        .addColumn('so2_factor', d.real, (c) => c.notNull().defaultTo(0.03))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('projects_owner_idx').on('projects').column('owner_id').execute();

      await d
        .addIdColumn(db.schema.createTable('dataloggers'))
        .addColumn('pn', text(32), (c) => c.notNull().unique())
        .addColumn('alias', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('type_code', text(8), (c) => c.notNull().defaultTo(''))
        .addColumn('model', text(64), (c) => c.notNull().defaultTo(''))
        .addColumn('comm_method', text(32), (c) => c.notNull().defaultTo(''))
        .addColumn('comm_address', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('devcode', 'integer')
        .addColumn('online_domain', text(255), (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('firmware', text(64), (c) => c.notNull().defaultTo(''))
        .addColumn('signal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('load_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('comm_balance', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('owner_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('admin_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('vendor_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('project_id', 'integer', (c) => c.references('projects.id'))
        .addColumn('tz_offset', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('collect_interval', 'integer', (c) => c.notNull().defaultTo(300))
        .addColumn('heartbeat_interval', 'integer', (c) => c.notNull().defaultTo(60))
        .addColumn('storage_days', 'integer', (c) => c.notNull().defaultTo(365))
        .addColumn('poll_start', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('poll_end', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('min_addr', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('max_addr', 'integer', (c) => c.notNull().defaultTo(247))
        .addColumn('transparent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('protocol_set', text(255), (c) => c.notNull().defaultTo(''))
        .addColumn('country', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('province', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('city', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('county', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('district', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('address', text(512), (c) => c.notNull().defaultTo(''))
        .addColumn('lon', d.real)
        .addColumn('lat', d.real)
        .addColumn('device_token_hash', 'char(64)')
        .addColumn('last_seen_at', d.bigint)
        .addColumn('ccid', text(32), (c) => c.notNull().defaultTo(''))
        .addColumn('card_status', 'integer', (c) => c.notNull().defaultTo(4))
        .addColumn('card_expire_at', d.bigint)
        .addColumn('gprs_traffic', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('bad_frames', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      for (const col of ['owner_id', 'admin_id', 'vendor_id', 'project_id'] as const) {
        await db.schema.createIndex(`dataloggers_${col}_idx`).on('dataloggers').column(col).execute();
      }

      await d
        .addIdColumn(db.schema.createTable('devices'))
        .addColumn('datalogger_id', 'integer', (c) => c.notNull().references('dataloggers.id').onDelete('cascade'))
        .addColumn('pn', text(32), (c) => c.notNull())
        .addColumn('devcode', 'integer', (c) => c.notNull())
        .addColumn('devaddr', 'integer', (c) => c.notNull())
        .addColumn('sn', text(64), (c) => c.notNull())
        .addColumn('alias', text(128), (c) => c.notNull().defaultTo(''))
        .addColumn('devtype', 'integer', (c) => c.notNull())
        .addColumn('device_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('model', text(64), (c) => c.notNull().defaultTo(''))
        .addColumn('brand', text(64), (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('firmware', text(64), (c) => c.notNull().defaultTo(''))
        .addColumn('load', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('project_id', 'integer', (c) => c.references('projects.id'))
        .addColumn('last_sample_at', d.bigint)
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addUniqueConstraint('devices_identity_uq', ['pn', 'devcode', 'devaddr', 'sn'])
        .execute();
      await db.schema.createIndex('devices_datalogger_idx').on('devices').column('datalogger_id').execute();
      await db.schema.createIndex('devices_project_idx').on('devices').column('project_id').execute();
      await db.schema.createIndex('devices_sn_idx').on('devices').column('sn').execute();

      await db.schema
        .createTable('device_follows')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('device_follows_pk', ['account_id', 'device_id'])
        .execute();

      await db.schema
        .createTable('samples')
        .addColumn('device_id', 'integer', (c) => c.notNull())
        .addColumn('ts', d.bigint, (c) => c.notNull())
        .addColumn('data', d.blob, (c) => c.notNull())
        .addPrimaryKeyConstraint('samples_pk', ['device_id', 'ts'])
        .modifyEnd(withoutRowid)
        .execute();

      await db.schema
        .createTable('device_latest')
        .addColumn('device_id', 'integer', (c) => c.primaryKey())
        .addColumn('ts', d.bigint, (c) => c.notNull())
        .addColumn('data', d.blob, (c) => c.notNull())
        .execute();

      let days = db.schema
        .createTable('device_days')
        .addColumn('device_id', 'integer', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('samples', 'integer', (c) => c.notNull().defaultTo(0));
      for (const k of ['gen', 'chg', 'dis', 'sold', 'bought', 'used']) {
        days = days.addColumn(`${k}_min`, d.real).addColumn(`${k}_max`, d.real);
      }
      await days
        .addColumn('peak_power', d.real)
        .addColumn('first_ts', d.bigint, (c) => c.notNull())
        .addColumn('last_ts', d.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('device_days_pk', ['device_id', 'day'])
        .modifyEnd(withoutRowid)
        .execute();

      await db.schema
        .createTable('viewer_projects')
        .addColumn('viewer_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('viewer_projects_pk', ['viewer_id', 'project_id'])
        .execute();
      await db.schema.createIndex('viewer_projects_project_idx').on('viewer_projects').column('project_id').execute();

      await d
        .addIdColumn(db.schema.createTable('alarms'))
        .addColumn('datalogger_id', 'integer', (c) => c.notNull().references('dataloggers.id').onDelete('cascade'))
        .addColumn('device_id', 'integer', (c) => c.references('devices.id').onDelete('cascade'))
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('code', 'integer', (c) => c.notNull())
        .addColumn('description', text(512), (c) => c.notNull().defaultTo(''))
        .addColumn('started_at', d.bigint, (c) => c.notNull())
        .addColumn('ended_at', d.bigint)
        .addColumn('handled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('alarms_datalogger_idx')
        .on('alarms')
        .columns(['datalogger_id', 'started_at'])
        .execute();
      await db.schema.createIndex('alarms_device_idx').on('alarms').columns(['device_id', 'started_at']).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
