import { ApiError } from '@sunwatch/protocol';

/** `YYYY-MM-DD HH:mm[:ss]` in a zone `tz` seconds east of UTC → ms since the epoch (err 6 when not a real time). */
export function localToEpoch(text: string, tz: number, field: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) throw new ApiError(6, field);
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(utc);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    throw new ApiError(6, field);
  }
  return utc - tz * 1000;
}

/** ms since the epoch → `YYYY-MM-DD HH:mm:ss` in a zone `tz` seconds east of UTC. */
export function epochToLocal(ms: number, tz: number): string {
  return new Date(ms + tz * 1000).toISOString().slice(0, 19).replace('T', ' ');
}
