import { bcp47, formatNumber } from '../shared/charts/format';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** A byte count in binary units (1 KB = 1024 B), e.g. "12.3 MB". */
export function formatBytes(bytes: number, locale: string): string {
  let v = Math.max(0, bytes);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${formatNumber(v, locale, u === 0 ? 0 : 1)} ${UNITS[u]}`;
}

/** A share 0..1 as a percentage ("0.5 %", "12 %"). */
export function formatRate(share: number, locale: string): string {
  return new Intl.NumberFormat(bcp47(locale), {
    style: 'percent',
    maximumFractionDigits: share > 0 && share < 0.1 ? 2 : 1,
  }).format(share);
}

/** The local hour of an hour bucket on the 24-hour clock ("14:00"; short enough for 24 bars). */
export function hourLabel(start: number, locale: string): string {
  return new Intl.DateTimeFormat(bcp47(locale), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(start),
  );
}

/** A duration in ms ("850 ms", "2.4 s"). */
export function formatMs(ms: number, locale: string): string {
  return ms >= 1000 ? `${formatNumber(ms / 1000, locale, 1)} s` : `${formatNumber(ms, locale, 0)} ms`;
}
