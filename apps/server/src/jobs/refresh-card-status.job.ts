import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { cardStatusSql } from '../modules/dataloggers/flow-card-sql.js';

export const REFRESH_CARD_STATUS_JOB = 'refresh-card-status';
export const REFRESH_CARD_STATUS_EVERY_MS = 3_600_000;

/**
 * Keeps `dataloggers.card_status` current (docs/money/flow-cards.md): the status is derived from
 * the card's expiry and usage (protocol deriveCardStatus), which change with time alone, so an
 * hourly pass rewrites the stored code of every card whose derived status moved, in one UPDATE.
 * Reads (queryGprsCollector) derive it themselves; the stored code is what recharge orders
 * snapshot and what SQL elsewhere may filter on. Not audited: it is a cache of a derivation,
 * not a decision (the inputs' writes are). Returns how many cards changed.
 */
export async function refreshCardStatuses(ctx: Pick<AppContext, 'db' | 'now' | 'log'>): Promise<number> {
  const now = ctx.now();
  const code = cardStatusSql(now, 'dataloggers');
  const res = await ctx.db
    .updateTable('dataloggers')
    .set({ card_status: code, card_status_at: now })
    .where(sql<boolean>`${sql.ref('dataloggers.card_status')} <> ${code}`)
    .executeTakeFirst();
  const changed = Number(res.numUpdatedRows);
  if (changed > 0) ctx.log.info({ changed }, 'flow-card statuses refreshed');
  return changed;
}
