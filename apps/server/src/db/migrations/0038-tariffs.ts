import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 15, tariffs and income (docs/money/tariffs.md):
 * - plant_tariffs: effective-dated prices of a plant (the six `profit.*` prices and the currency) with
 *   optional time-of-use periods (JSON text, protocol tariffs.ts). A tariff applies from
 *   `effective_from` (epoch ms; 0 = since always) until the next one starts. `mirrored` = 1 once the
 *   plant's own price columns were set to it (they always show the tariff in force).
 * - plant_income_days: a plant's income of one closed local day per currency, frozen when the day
 *   closed: later tariff or currency changes never touch it.
 * Every existing plant gets its current prices as its first tariff (from 0).
 */
export function tariffs(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('plant_tariffs'))
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('effective_from', d.bigint, (c) => c.notNull())
        .addColumn('currency', 'varchar(8)', (c) => c.notNull())
        .addColumn('price_gen', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_sell', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_self', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_buy', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_use', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('price_feed', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('periods', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('mirrored', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
        .addColumn('created_usr', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addUniqueConstraint('plant_tariffs_from_uq', ['project_id', 'effective_from'])
        .execute();
      await db.schema
        .createIndex('plant_tariffs_mirror_idx')
        .on('plant_tariffs')
        .columns(['mirrored', 'effective_from'])
        .execute();

      await db.schema
        .createTable('plant_income_days')
        .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('currency', 'varchar(8)', (c) => c.notNull())
        .addColumn('generated', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('sold', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('self_use', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('bought', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('used', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('gen_income', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('sold_income', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('feed_income', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('self_income', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('buy_cost', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('use_value', d.real, (c) => c.notNull().defaultTo(0))
        .addColumn('frozen_at', d.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('plant_income_days_pk', ['project_id', 'day', 'currency'])
        .execute();
      await db.schema.createIndex('plant_income_days_day_idx').on('plant_income_days').column('day').execute();

      const now = Date.now();
      await sql`insert into plant_tariffs (project_id, effective_from, currency, price_gen, price_sell, price_self,
          price_buy, price_use, price_feed, periods, mirrored, created_usr, created_at, updated_at)
        select id, 0, currency, unit_profit, price_sell, price_self, price_buy, price_use, price_feed, '[]', 1, '',
          ${now}, ${now} from projects`.execute(db);
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
