import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { CARD_GRACE_DAYS, CARD_WARNING_DAYS, CARD_WARNING_USED_PCT, CELLULAR_COMM_METHODS } from '@sunwatch/protocol';

const DAY_MS = 86_400_000;

/**
 * protocol deriveCardStatus() in SQL (both engines), so the flow-card list filters, counts and
 * pages by the status as of `now`: 0 normal, 1 warning, 2 overdue, 3 expired, 4 unknown.
 * A test keeps the two in step (apps/server/test/money/flow-cards.test.ts).
 */
export function cardStatusSql(now: number, a = 'dl'): RawBuilder<number> {
  const col = (c: string) => sql.ref(`${a}.${c}`);
  const exp = col('card_expire_at');
  // Literals, not parameters: the expression is also grouped by (PostgreSQL matches a GROUP BY
  // expression to the select list only when both are the same text, parameters included).
  const n = (v: number) => sql.lit(Math.trunc(v));
  return sql<number>`(case
    when ${col('ccid')} = '' or ${exp} is null then 4
    when ${n(now)} > ${exp} + ${n(CARD_GRACE_DAYS * DAY_MS)} then 3
    when ${n(now)} > ${exp} then 2
    when ${exp} - ${n(now)} <= ${n(CARD_WARNING_DAYS * DAY_MS)} then 1
    when ${col('card_limit_kb')} > 0 and ${col('card_used_kb')} * 100 >= ${col('card_limit_kb')} * ${n(CARD_WARNING_USED_PCT)} then 1
    else 0 end)`;
}

/** A cellular datalogger: it has a CCID or a network type, or a cellular communication method. */
export function cellularSql(a = 'dl'): RawBuilder<SqlBool> {
  const col = (c: string) => sql.ref(`${a}.${c}`);
  return sql<SqlBool>`(${col('ccid')} != '' or ${col('card_network')} != '' or lower(${col('comm_method')}) in (${sql.join(
    CELLULAR_COMM_METHODS.map((m) => sql.lit(m)),
  )}))`;
}
