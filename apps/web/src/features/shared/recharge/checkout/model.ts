/**
 * Issue 15 checkout model (docs/money/payments.md): money formatting, where the order-result page
 * is, and which order states are final (the result page stops polling).
 */
// Money is formatted as on every money page (../format.ts; it takes `en_US` as well as `en-US`).
export { formatMoney } from '../format';

/** A day as the language writes it ('' for null). */
export function formatDay(ms: number | null | undefined, locale: string): string {
  if (ms === null || ms === undefined) return '';
  return new Date(ms).toLocaleDateString(locale.replace('_', '-'), {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
}

/**
 * The order-result page for the area the payer is in: `<…>/rechargePay/result` when the current
 * path is under rechargePay, else the area's `setting/rechargePay/result` (every area that pays
 * has it). The sandbox redirects there with ?kind=&orderNo=.
 */
export function resultPathFor(pathname: string): string {
  const segs = pathname.split('/').filter(Boolean);
  const i = segs.indexOf('rechargePay');
  if (i >= 0) return `/${segs.slice(0, i + 1).join('/')}/result`;
  return `/${segs[0] ?? 'generalNew'}/setting/rechargePay/result`;
}

/** The rechargePay page of a result page's path (`…/rechargePay/result` → `…/rechargePay`). */
export function payPageOf(pathname: string): string {
  return pathname.replace(/\/result\/?$/, '');
}

/** States after which the result page stops polling. */
export const FINAL_STATES: readonly string[] = ['success', 'failed', 'expired', 'overdue'];

export type ResultTone = 'success' | 'error' | 'warning' | 'info';

export function resultTone(status: string): ResultTone {
  if (status === 'success') return 'success';
  if (status === 'failed' || status === 'expired') return 'error';
  if (status === 'overdue') return 'warning';
  return 'info';
}
