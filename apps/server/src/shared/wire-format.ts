/** Number formats of the wire protocol (fixed decimals, empty for unset). */

/** Fixed 4-decimal wire number. */
export function num4(n: number | undefined | null): string {
  const v = n ?? 0;
  const s = (Number.isFinite(v) ? v : 0).toFixed(4);
  return /^-0\.0+$/.test(s) ? s.slice(1) : s;
}

/** A nullable real as a wire string ("" when unset). */
export function optNum(n: number | null | undefined): string {
  return n === null || n === undefined ? '' : String(n);
}
