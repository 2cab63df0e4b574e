import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Plant management (issue 10): the vendor plant fields the first schema lacked — village, the
 * self-consumption and feed-in prices, the currency's country — and the thumbnail of the plant
 * picture (`image` keeps the picture's URL; both files live in DATA_DIR, not in the database).
 */
export function plantsAdmin(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      const text = (n: number) => `varchar(${n})` as const;
      const t = () => db.schema.alterTable('projects');
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await t().addColumn('village', text(128), (c) => c.notNull().defaultTo('')).execute();
      await t().addColumn('price_self', d.real, (c) => c.notNull().defaultTo(0)).execute();
      await t().addColumn('price_feed', d.real, (c) => c.notNull().defaultTo(0)).execute();
      await t().addColumn('currency_country', text(8), (c) => c.notNull().defaultTo('')).execute();
      await t().addColumn('image_small', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
