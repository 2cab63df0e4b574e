import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Datalogger management (issue 10):
 * - `datalogger_events`: the datalogger log — connections, disconnections, refused sign-ins,
 *   heartbeat gaps (offline), commands sent, their acknowledgements and timeouts. Written by the
 *   MQTT broker hooks, the command service and the offline job; read by webQueryCollectorLog.
 *   Rows are kept by PN (no foreign key): the log outlives a reset.
 * - the datalogger's own plant data (spec §3 Datalogger "plant data": rated power, install date,
 *   installer, currency, prices) and SIM IMSI, edited by editCollectorEs.
 */
export function dataloggerAdmin(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('datalogger_events'))
        .addColumn('ts', d.bigint, (c) => c.notNull())
        .addColumn('pn', 'text', (c) => c.notNull())
        /** COLLECTOR_EVENT_KINDS (protocol). */
        .addColumn('kind', 'text', (c) => c.notNull())
        /** Command kind for command / ack / timeout; '' otherwise. */
        .addColumn('cmd', 'text', (c) => c.notNull().defaultTo(''))
        /** 0 fine; else an err code (2 timeout, 1 refused, …). */
        .addColumn('result', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('usr', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('datalogger_events_pn_idx').on('datalogger_events').columns(['pn', 'ts']).execute();
      const cols: Array<[string, 'text' | 'real' | 'bigint']> = [
        ['nominal_power', 'real'],
        ['install_at', 'bigint'],
        ['installer', 'text'],
        ['currency', 'text'],
        ['unit_profit', 'real'],
        ['price_buy', 'real'],
        ['price_sell', 'real'],
        ['price_use', 'real'],
        ['price_gen', 'real'],
        ['imsi', 'text'],
      ];
      for (const [name, type] of cols) {
        await db.schema
          .alterTable('dataloggers')
          .addColumn(name, type === 'real' ? d.real : type === 'bigint' ? d.bigint : 'text', (c) =>
            type === 'bigint' ? c : type === 'real' ? c.notNull().defaultTo(0) : c.notNull().defaultTo(''),
          )
          .execute();
      }
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
