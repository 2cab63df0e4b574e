import { sql, type Kysely, type Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 15, flow cards (the SIM cards of cellular dataloggers, docs/money/flow-cards.md): the
 * card's details become columns of `dataloggers`, next to the existing `ccid`, `card_status`,
 * `card_expire_at`, `imsi` and `gprs_traffic` (one card per datalogger; a separate table keyed
 * by CCID would need the datalogger's scope joined on every read and would lose cards whose CCID
 * is not known yet, the `unknown` ones):
 * - card_carrier: the operator (carrier) name; card_package: the package (plan) name;
 * - card_used_kb / card_limit_kb: traffic used in the current period and the package's limit
 *   (KB, integers; limit 0 = unknown). gprs_traffic (MB) stays the vendor's `traffic` key;
 * - card_network (protocol NETWORK_TYPES), card_type (CARD_TYPES), card_area (mainland or
 *   international, RECHARGE_AREAS);
 * - card_activated_at: activation instant (ms), the start of the validity bar;
 * - card_status_at: when the card-status job last recomputed card_status (ms).
 */
export function flowCards(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      const texts: Array<[string, number]> = [
        ['card_carrier', 64],
        ['card_package', 64],
        ['card_network', 16],
        ['card_type', 16],
        ['card_area', 16],
      ];
      for (const [name, len] of texts) {
        await db.schema
          .alterTable('dataloggers')
          .addColumn(name, `varchar(${len})`, (c) => c.notNull().defaultTo(''))
          .execute();
      }
      for (const name of ['card_used_kb', 'card_limit_kb']) {
        await db.schema
          .alterTable('dataloggers')
          .addColumn(name, d.bigint, (c) => c.notNull().defaultTo(0))
          .execute();
      }
      for (const name of ['card_activated_at', 'card_status_at']) {
        await db.schema.alterTable('dataloggers').addColumn(name, d.bigint).execute();
      }
      // The MB counter seen so far becomes the KB one.
      await sql`update dataloggers set card_used_kb = cast(round(gprs_traffic * 1024) as bigint) where gprs_traffic > 0`.execute(
        db,
      );
      await db.schema.createIndex('dataloggers_card_status_idx').on('dataloggers').column('card_status').execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
