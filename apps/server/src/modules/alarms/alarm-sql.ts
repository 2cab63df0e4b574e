import {
  alarmDescMatches,
  alarmDeviceType,
  ALARM_DEVICE_TYPES,
  DEVICE_DEFINITIONS,
  DEVTYPES,
  parseSlotTime,
  type AlarmDeviceType,
  type AlarmRule,
} from '@sunwatch/protocol';
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * SQL twins of the protocol's alarm semantics (device type of alarm, filter rules), over the
 * alarm list's joins: `a` alarms, `dl` its datalogger, `d` its device (left join: null for a
 * datalogger's offline alarm), `p` the datalogger's plant (left join). `rules.test.ts` of this
 * module checks them against `alarmRuleMatches` row by row on both engines.
 */

const ids = (xs: readonly (number | string)[]) => sql.join(xs.map((x) => sql`${x}`));
const FALSE = sql<SqlBool>`1 = 0`;
const TRUE = sql<SqlBool>`1 = 1`;

/** The plant's timezone (seconds east), else the datalogger's. */
export const ALARM_TZ = sql<number>`coalesce(p.tz_offset, dl.tz_offset, 0)`;

const KNOWN_DEVCODES = DEVICE_DEFINITIONS.map((d) => d.devcode);
/** A devcode no definition has, to ask alarmDeviceType about a bare devtype. */
const UNKNOWN_DEVCODE = -1;

/**
 * Where-clause: the alarm's device type of alarm is one of `types`. `semi`: over `a` alone (a
 * semi-join on devices), for the join-free alarm queries of the repository.
 */
export function alarmDeviceTypeSql(types: readonly AlarmDeviceType[], semi = false): RawBuilder<SqlBool> {
  if (types.length === 0) return TRUE;
  const parts: RawBuilder<SqlBool>[] = [];
  for (const t of new Set(types)) {
    if (t === 'datalogger') {
      parts.push(sql<SqlBool>`a.device_id is null`);
      continue;
    }
    const codes = DEVICE_DEFINITIONS.filter((def) => alarmDeviceType(def.devcode, def.devtype) === t).map(
      (d) => d.devcode,
    );
    const devtypes = DEVTYPES.filter((dt) => alarmDeviceType(UNKNOWN_DEVCODE, dt) === t);
    // An unknown devtype of an unknown devcode counts as an inverter (alarmDeviceType's default).
    const otherDevtypes = alarmDeviceType(UNKNOWN_DEVCODE, -1) === t;
    const byDef = codes.length > 0 ? sql<SqlBool>`d.devcode in (${ids(codes)})` : FALSE;
    const fallback: RawBuilder<SqlBool>[] = [];
    if (devtypes.length > 0) fallback.push(sql<SqlBool>`d.devtype in (${ids(devtypes)})`);
    if (otherDevtypes) fallback.push(sql<SqlBool>`d.devtype not in (${ids(DEVTYPES)})`);
    const byDevtype =
      fallback.length > 0
        ? sql<SqlBool>`(d.devcode not in (${ids(KNOWN_DEVCODES)}) and (${sql.join(fallback, sql` or `)}))`
        : FALSE;
    parts.push(
      semi
        ? sql<SqlBool>`a.device_id in (select d.id from devices d where ${byDef} or ${byDevtype})`
        : sql<SqlBool>`(a.device_id is not null and (${byDef} or ${byDevtype}))`,
    );
  }
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** Where-clause: the alarm's description (in any language) contains the keyword (rules.ts semantics). */
export function alarmDescSql(keyword: string, semi = false): RawBuilder<SqlBool> {
  if (keyword.trim() === '') return TRUE;
  const parts: RawBuilder<SqlBool>[] = [];
  if (alarmDescMatches(null, 263, 3, keyword)) parts.push(sql<SqlBool>`(a.device_id is null and a.code = 263)`);
  for (const def of DEVICE_DEFINITIONS) {
    const codes = def.faults.filter((f) => alarmDescMatches(def.devcode, f.code, f.level, keyword)).map((f) => f.code);
    if (codes.length > 0)
      parts.push(
        semi
          ? sql<SqlBool>`(a.code in (${ids(codes)}) and a.device_id in (select d.id from devices d where d.devcode = ${def.devcode}))`
          : sql<SqlBool>`(a.device_id is not null and d.devcode = ${def.devcode} and a.code in (${ids(codes)}))`,
      );
  }
  return parts.length > 0 ? sql<SqlBool>`(${sql.join(parts, sql` or `)})` : FALSE;
}

/**
 * Where-clause: the alarm started inside the rule's daily time slot (plant timezone, half-open).
 * With `tzs` (every timezone any datalogger's alarms are read in: DATALOGGER_TZS_SQL) the clause
 * reads `a` alone: one arm per timezone, the minute computed from a literal offset, and the
 * dataloggers of that timezone as a semi-join (left out when there is only one timezone).
 */
export function timeSlotSql(stime: string, etime: string, tzs?: readonly number[]): RawBuilder<SqlBool> {
  const s = parseSlotTime(stime);
  const e = parseSlotTime(etime);
  if (s === undefined || e === undefined || s === e) return TRUE;
  const inSlot = (tz: RawBuilder<unknown>) => {
    const minute = sql`(((a.started_at + ${tz} * 1000) / 60000) % 1440)`;
    return s < e
      ? sql<SqlBool>`(${minute} >= ${s} and ${minute} < ${e})`
      : sql<SqlBool>`(${minute} >= ${s} or ${minute} < ${e})`;
  };
  if (tzs === undefined) return inSlot(ALARM_TZ);
  if (tzs.length === 0) return FALSE;
  const lit = (tz: number) => {
    if (!Number.isInteger(tz)) throw new Error('tz must be an integer');
    return sql.lit(tz);
  };
  if (tzs.length === 1) return inSlot(lit(tzs[0]!));
  return sql<SqlBool>`(${sql.join(
    tzs.map(
      (tz) =>
        sql`(a.datalogger_id in (select dl.id from dataloggers dl left join projects p on p.id = dl.project_id
          where ${ALARM_TZ} = ${lit(tz)}) and ${inSlot(lit(tz))})`,
    ),
    sql` or `,
  )})`;
}

/** Every timezone alarms are read in (the argument `tzs` of the join-free rule clauses). */
export const DATALOGGER_TZS_SQL = sql<{ tz: number }>`select distinct ${ALARM_TZ} as tz
  from dataloggers dl left join projects p on p.id = dl.project_id`;

/**
 * Where-clause: an enabled rule matches the alarm (alarmRuleMatches at the alarm's occurrence).
 * Without `tzs` over the list's joins (`a`, `dl`, `d`, `p`); with `tzs` over `a` alone (semi-joins
 * on devices and dataloggers; see timeSlotSql), which keeps counts of wide scopes on a narrow index.
 */
export function ruleSql(rule: AlarmRule, tzs?: readonly number[]): RawBuilder<SqlBool> {
  if (!rule.enabled) return FALSE;
  const semi = tzs !== undefined;
  const parts: RawBuilder<SqlBool>[] = [];
  if (rule.level.length > 0) parts.push(sql<SqlBool>`a.level in (${ids(rule.level)})`);
  if (rule.code.length > 0) parts.push(sql<SqlBool>`a.code in (${ids(rule.code)})`);
  if (rule.pid.length > 0)
    parts.push(
      semi
        ? sql<SqlBool>`a.datalogger_id in (select dl.id from dataloggers dl where dl.project_id in (${ids(rule.pid)}))`
        : sql<SqlBool>`dl.project_id in (${ids(rule.pid)})`,
    );
  if (rule.atype.length > 0)
    parts.push(alarmDeviceTypeSql(rule.atype.filter((t) => ALARM_DEVICE_TYPES.includes(t)), semi));
  if (rule.device.length > 0) {
    const want = [...new Set(rule.device.map((x) => x.trim().toLowerCase()))];
    parts.push(
      semi
        ? sql<SqlBool>`(a.device_id in (select d.id from devices d where lower(d.sn) in (${ids(want)}))
            or a.datalogger_id in (select dl.id from dataloggers dl where lower(dl.pn) in (${ids(want)})))`
        : sql<SqlBool>`(lower(d.sn) in (${ids(want)}) or lower(dl.pn) in (${ids(want)}))`,
    );
  }
  parts.push(timeSlotSql(rule.stime, rule.etime, tzs));
  parts.push(alarmDescSql(rule.desc, semi));
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/**
 * 1 when one of the rules matches, else 0 (never null: a null of a left join counts as no match,
 * so `not` of it stays correct). `tzs`: the join-free form (ruleSql).
 */
export function anyRuleSql(rules: readonly AlarmRule[], tzs?: readonly number[]): RawBuilder<number> {
  const live = rules.filter((r) => r.enabled);
  if (live.length === 0) return sql<number>`0`;
  return sql<number>`(case when (${sql.join(
    live.map((r) => ruleSql(r, tzs)),
    sql` or `,
  )}) then 1 else 0 end)`;
}
