import type { AppContext } from '../context.js';
import { StrategyRollout, STRATEGY_ROLLOUT_INTERVAL_MS } from '../modules/upgrade-strategies/strategy-rollout.js';
import type { UpgradeEngine } from '../modules/upgrades/engine-port.js';
import { JobRunner } from './job-runner.js';

/**
 * Schedules the upgrade-strategy rollout (StrategyRollout.runOnce) every few seconds under the
 * `upgrade-strategies` database lease, so one instance runs it per interval. Called where the
 * upgrade engine is created (it is the rollout's only way to start an upgrade). Returns stop().
 */
export function scheduleStrategyRollout(ctx: AppContext, engine: UpgradeEngine): () => void {
  const rollout = new StrategyRollout({ db: ctx.db, dbh: ctx.dbh, audit: ctx.services.audit, now: ctx.now, log: ctx.log, engine, access: ctx.services.access });
  const jobs = new JobRunner(ctx.db, ctx.now, ctx.log);
  jobs.every('upgrade-strategies', STRATEGY_ROLLOUT_INTERVAL_MS, () => rollout.runOnce().then(() => undefined));
  return () => jobs.stop();
}
