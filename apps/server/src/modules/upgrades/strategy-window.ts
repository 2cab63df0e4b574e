/**
 * When an upgrade strategy applies, in SQL, once for every query that asks it
 * (docs/firmware/strategies.md "Offers"): the offers of the upgrade screens, the device's suggested
 * strategies, the rollout and the list's "in effect" filter.
 *
 * It lives here rather than in modules/upgrade-strategies because both modules use it and
 * upgrade-strategies already imports upgrades (engine-port.ts): the other way round would be a
 * cycle (test/import-graph.test.ts).
 */
import { STRATEGY_METHOD } from '@sunwatch/protocol';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { UpgradeStrategiesTable } from '../../db/schema-firmware.js';

/** How a query names the strategies table: the alias `s`, or the table itself. */
export type StrategyTableRef = 's' | 'upgrade_strategies';

type StrategyScope<A extends StrategyTableRef> = ExpressionBuilder<Record<A, UpgradeStrategiesTable>, A>;
type StrategyFilter<A extends StrategyTableRef> = <DB extends Record<A, UpgradeStrategiesTable>, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
) => Expression<SqlBool>;

/** In effect at `now`: not cancelled, `starts_at ≤ now < ends_at`. */
export function strategyInEffect<A extends StrategyTableRef = 's'>(
  now: number,
  table: A = 's' as A,
): StrategyFilter<A> {
  return (outer) => {
    const eb = outer as unknown as StrategyScope<StrategyTableRef>;
    const t = table as StrategyTableRef;
    return eb.and([eb(`${t}.cancelled_at`, 'is', null), eb(`${t}.starts_at`, '<=', now), eb(`${t}.ends_at`, '>', now)]);
  };
}

/** A suggested strategy open now: method suggested and in effect at `now` (an owner may take its offer). */
export function suggestedStrategyOpen<A extends StrategyTableRef = 's'>(
  now: number,
  table: A = 's' as A,
): StrategyFilter<A> {
  return (outer) => {
    const eb = outer as unknown as StrategyScope<StrategyTableRef>;
    const t = table as StrategyTableRef;
    return eb.and([eb(`${t}.method`, '=', STRATEGY_METHOD.suggested), strategyInEffect(now, t)(eb)]);
  };
}
