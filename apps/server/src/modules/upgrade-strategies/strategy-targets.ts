import crypto from 'node:crypto';
import type { StrategyFilter } from '@sunwatch/protocol';
import { sql, type SqlBool } from 'kysely';
import { dataloggerScopeSql, type TelemetryScope } from '../../access/access.repository.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';

/**
 * The targets a strategy may reach, in SQL (docs/firmware/strategies.md "By filter"): the editor's
 * picker (`queryUpgradeStrategyCandidates`) and the rollout's resolution of a filter share these
 * two queries, so the picker's `total` is what a by-filter strategy would resolve to. Every query
 * carries the scope's `dataloggerScopeSql` on the datalogger; nothing loads the fleet at once
 * (callers page with `limit`/`offset` or a key cursor).
 */

/** Options beyond the filter: the firmware's manufacturer (the rollout resolves only its dataloggers). */
export interface TargetQueryOptions {
  vendorId?: number | undefined;
}

/** Dataloggers of `scope` matching `f` (alias `dl`). */
export function loggerTargets(db: Db, scope: TelemetryScope, f: StrategyFilter, o: TargetQueryOptions = {}) {
  let q = db.selectFrom('dataloggers as dl').where(dataloggerScopeSql(scope, 'dl'));
  if (o.vendorId !== undefined) q = q.where('dl.vendor_id', '=', o.vendorId);
  if (f.plantid !== undefined) q = q.where('dl.project_id', '=', f.plantid);
  if (f.loggerType) q = q.where('dl.type_code', '=', f.loggerType);
  if (f.model) q = q.where('dl.model', '=', f.model);
  if (f.version) q = q.where('dl.firmware', '=', f.version);
  if (f.search) {
    const like = likePattern(f.search);
    q = q.where(sql<SqlBool>`(lower(dl.pn) like ${like} escape '\\' or lower(dl.alias) like ${like} escape '\\')`);
  }
  return q;
}

/** Devices behind the dataloggers of `scope` matching `f` (aliases `dv`, `dl`); model/version are the device's. */
export function deviceTargets(db: Db, scope: TelemetryScope, f: StrategyFilter, o: TargetQueryOptions = {}) {
  let q = db
    .selectFrom('devices as dv')
    .innerJoin('dataloggers as dl', 'dl.pn', 'dv.pn')
    .where(dataloggerScopeSql(scope, 'dl'));
  if (o.vendorId !== undefined) q = q.where('dl.vendor_id', '=', o.vendorId);
  if (f.devcode !== undefined) q = q.where('dv.devcode', '=', f.devcode);
  if (f.plantid !== undefined) q = q.where('dl.project_id', '=', f.plantid);
  if (f.loggerType) q = q.where('dl.type_code', '=', f.loggerType);
  if (f.model) q = q.where('dv.model', '=', f.model);
  if (f.version) q = q.where('dv.firmware', '=', f.version);
  if (f.search) {
    const like = likePattern(f.search);
    q = q.where(
      sql<SqlBool>`(lower(dv.pn) like ${like} escape '\\' or lower(dv.sn) like ${like} escape '\\' or lower(dv.alias) like ${like} escape '\\' or lower(dl.alias) like ${like} escape '\\')`,
    );
  }
  return q;
}

/** A stable pseudo-random rank of a target within a strategy (0 … 2³¹−1): the canary is the lowest ranks. */
export function targetRank(code: string, pn: string, sn: string): number {
  return crypto.createHash('sha256').update(`${code}|${pn}|${sn}`).digest().readUInt32BE(0) >>> 1;
}

/** The stored filter of a strategy row (null when '' or unreadable). */
export function storedFilter(text: string): StrategyFilter | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as StrategyFilter) : null;
  } catch {
    return null;
  }
}
