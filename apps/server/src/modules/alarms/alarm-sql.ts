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

/** Where-clause: the alarm's device type of alarm is one of `types`. */
export function alarmDeviceTypeSql(types: readonly AlarmDeviceType[]): RawBuilder<SqlBool> {
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
    parts.push(sql<SqlBool>`(a.device_id is not null and (${byDef} or ${byDevtype}))`);
  }
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** Where-clause: the alarm's description (in any language) contains the keyword (rules.ts semantics). */
export function alarmDescSql(keyword: string): RawBuilder<SqlBool> {
  if (keyword.trim() === '') return TRUE;
  const parts: RawBuilder<SqlBool>[] = [];
  if (alarmDescMatches(null, 263, 3, keyword)) parts.push(sql<SqlBool>`(a.device_id is null and a.code = 263)`);
  for (const def of DEVICE_DEFINITIONS) {
    const codes = def.faults.filter((f) => alarmDescMatches(def.devcode, f.code, f.level, keyword)).map((f) => f.code);
    if (codes.length > 0)
      parts.push(sql<SqlBool>`(a.device_id is not null and d.devcode = ${def.devcode} and a.code in (${ids(codes)}))`);
  }
  return parts.length > 0 ? sql<SqlBool>`(${sql.join(parts, sql` or `)})` : FALSE;
}

/** Where-clause: the alarm started inside the rule's daily time slot (plant timezone, half-open). */
export function timeSlotSql(stime: string, etime: string): RawBuilder<SqlBool> {
  const s = parseSlotTime(stime);
  const e = parseSlotTime(etime);
  if (s === undefined || e === undefined || s === e) return TRUE;
  const minute = sql`(((a.started_at + ${ALARM_TZ} * 1000) / 60000) % 1440)`;
  return s < e
    ? sql<SqlBool>`(${minute} >= ${s} and ${minute} < ${e})`
    : sql<SqlBool>`(${minute} >= ${s} or ${minute} < ${e})`;
}

/** Where-clause: an enabled rule matches the alarm (alarmRuleMatches at the alarm's occurrence). */
export function ruleSql(rule: AlarmRule): RawBuilder<SqlBool> {
  if (!rule.enabled) return FALSE;
  const parts: RawBuilder<SqlBool>[] = [];
  if (rule.level.length > 0) parts.push(sql<SqlBool>`a.level in (${ids(rule.level)})`);
  if (rule.code.length > 0) parts.push(sql<SqlBool>`a.code in (${ids(rule.code)})`);
  if (rule.pid.length > 0) parts.push(sql<SqlBool>`dl.project_id in (${ids(rule.pid)})`);
  if (rule.atype.length > 0) parts.push(alarmDeviceTypeSql(rule.atype.filter((t) => ALARM_DEVICE_TYPES.includes(t))));
  if (rule.device.length > 0) {
    const want = [...new Set(rule.device.map((x) => x.trim().toLowerCase()))];
    parts.push(sql<SqlBool>`(lower(d.sn) in (${ids(want)}) or lower(dl.pn) in (${ids(want)}))`);
  }
  parts.push(timeSlotSql(rule.stime, rule.etime));
  parts.push(alarmDescSql(rule.desc));
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/**
 * 1 when one of the rules matches, else 0 (never null: a null of a left join counts as no match,
 * so `not` of it stays correct).
 */
export function anyRuleSql(rules: readonly AlarmRule[]): RawBuilder<number> {
  const live = rules.filter((r) => r.enabled);
  if (live.length === 0) return sql<number>`0`;
  return sql<number>`(case when (${sql.join(live.map(ruleSql), sql` or `)}) then 1 else 0 end)`;
}
