import { LOCALES } from '../locales.js';
import { alarmCodeDef, alarmText } from './texts.js';
import { alarmDeviceType, type AlarmDeviceType } from './types.js';

/**
 * Alarm filter rules (spec §2 "Alarms", §3 "Alarm filter rule": name, time slot, device type,
 * device filter, alarm type, description). A rule belongs to one account; an alarm it matches is
 * not notified (`mute`) and/or hidden from that account's alarm lists (`hide`, shown again with
 * the list's `hidden` filter). The server's SQL filter and the notifier use the same semantics.
 */
export interface AlarmRule {
  id: number;
  name: string;
  enabled: boolean;
  /**
   * Daily time slot "HH:MM" in the plant's timezone, half-open [stime, etime); both empty = all
   * day; stime > etime wraps midnight (22:00–06:00).
   */
  stime: string;
  etime: string;
  /** Device types of alarm (empty = any). */
  atype: AlarmDeviceType[];
  /** Plants (empty = any). */
  pid: number[];
  /** Device filter: device SNs or datalogger PNs, exact and case-insensitive (empty = any). */
  device: string[];
  /** Alarm types = levels 0 warning, 1 error, 2 fault, 3 offline (empty = any). */
  level: number[];
  /** Alarm codes (empty = any). */
  code: number[];
  /**
   * Description keyword (empty = any): a case-insensitive substring of the alarm's description in
   * any of the 11 languages. Only codes the protocol knows (and the offline alarm) have a
   * description to match; an unknown code never matches a non-empty keyword.
   */
  desc: string;
  /** Matching alarms are not notified (no alarm mail). */
  mute: boolean;
  /** Matching alarms are hidden from the owner's alarm lists. */
  hide: boolean;
}

/** What a rule looks at in an alarm. */
export interface AlarmFacts {
  /** Null for the offline alarm of a datalogger (no device). */
  devcode: number | null;
  devtype: number | null;
  code: number;
  level: number;
  /** Device SN ("" without device). */
  sn: string;
  /** Datalogger PN. */
  pn: string;
  pid: number | null;
  /** The plant's timezone, seconds east of UTC. */
  timezone: number;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of "HH:MM", or undefined when malformed / empty. */
export function parseSlotTime(s: string): number | undefined {
  const m = HHMM.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/** Whether the local minute of day `min` lies in the slot [start, end) (wrapping midnight). */
export function inTimeSlot(min: number, stime: string, etime: string): boolean {
  const s = parseSlotTime(stime);
  const e = parseSlotTime(etime);
  if (s === undefined || e === undefined || s === e) return true;
  return s < e ? min >= s && min < e : min >= s || min < e;
}

/** Minute of day at `at` (epoch ms) in a timezone `tz` seconds east of UTC. */
export function localMinuteOfDay(at: number, tz: number): number {
  const m = Math.floor((at + tz * 1000) / 60_000) % 1440;
  return m < 0 ? m + 1440 : m;
}

/** Whether a keyword (lower case) is found in the alarm's description in some language. */
export function alarmDescMatches(devcode: number | null, code: number, level: number, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  if (k === '') return true;
  if (!alarmCodeDef(devcode, code, level).known) return false;
  return LOCALES.some((l) => alarmText(devcode, code, l, level).toLowerCase().includes(k));
}

/**
 * Whether an enabled rule matches an alarm at `at` (epoch ms: the alarm's occurrence for lists, the
 * moment of notifying for mails). Every non-empty criterion must hold.
 */
export function alarmRuleMatches(rule: AlarmRule, alarm: AlarmFacts, at: number): boolean {
  if (!rule.enabled) return false;
  if (rule.level.length > 0 && !rule.level.includes(alarm.level)) return false;
  if (rule.code.length > 0 && !rule.code.includes(alarm.code)) return false;
  if (rule.pid.length > 0 && (alarm.pid === null || !rule.pid.includes(alarm.pid))) return false;
  if (rule.atype.length > 0 && !rule.atype.includes(alarmDeviceType(alarm.devcode, alarm.devtype))) return false;
  if (rule.device.length > 0) {
    const want = new Set(rule.device.map((d) => d.trim().toLowerCase()));
    if (!want.has(alarm.sn.toLowerCase()) && !want.has(alarm.pn.toLowerCase())) return false;
  }
  if (!inTimeSlot(localMinuteOfDay(at, alarm.timezone), rule.stime, rule.etime)) return false;
  return alarmDescMatches(alarm.devcode, alarm.code, alarm.level, rule.desc);
}
