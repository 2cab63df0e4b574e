/**
 * Alarm times: the wire gives occurrence, end and handling times as "YYYY-MM-DD HH:MM:SS" in the
 * plant's timezone (`timezone`, seconds east of UTC). They are shown as they come, with the
 * plant's offset; durations need the instants.
 */
import type { AlarmRow } from '@sunwatch/protocol';

const WIRE = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Epoch ms of a wire time in a plant timezone (undefined for "" or a malformed value). */
export function wireInstant(text: string, tzSeconds: number): number | undefined {
  const m = WIRE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  return Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +(s ?? 0)) - tzSeconds * 1000;
}

/** How long the alarm lasted (ended) or has lasted until `now` (ongoing), in ms. */
export function alarmDurationMs(row: Pick<AlarmRow, 'gts' | 'ets' | 'timezone'>, now: number): number | undefined {
  const start = wireInstant(row.gts, row.timezone);
  if (start === undefined) return undefined;
  const end = row.ets ? wireInstant(row.ets, row.timezone) : now;
  return end === undefined ? undefined : Math.max(0, end - start);
}
