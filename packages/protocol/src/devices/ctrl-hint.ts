/**
 * The range hint of a numeric control field as queryDeviceCtrlField shows it ("56.4~59.0V",
 * "21.0~24.0V 42.0~48.0V", "0-900min", even backwards "54.4~48.0V"), read back into ranges so a
 * client can refuse a value outside them before sending ctrlDevice. The server still validates
 * against the definition's `ranges` (encodeControl); both must agree (ctrl-hint.test.ts checks
 * every shipped definition).
 */

export interface HintRange {
  min: number;
  max: number;
  /** Most decimals either end is written with ("56.4~59.0V" → 1). */
  decimals: number;
}

const RANGE_RE = /(-?\d+(?:\.(\d+))?)\s*[~\-–]\s*(-?\d+(?:\.(\d+))?)/g;

/** The ranges of a hint; undefined when the hint holds none (a time "23:59", a text). */
export function parseHintRanges(hint: string | undefined): HintRange[] | undefined {
  if (!hint) return undefined;
  const out: HintRange[] = [];
  for (const m of hint.matchAll(RANGE_RE)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    out.push({ min: Math.min(a, b), max: Math.max(a, b), decimals: Math.max(m[2]?.length ?? 0, m[4]?.length ?? 0) });
  }
  return out.length > 0 ? out : undefined;
}

export type HintCheck = { ok: true; value: string } | { ok: false; reason: 'not-a-number' | 'out-of-range' | 'too-precise' };

/**
 * Checks a typed value against a hint: a number inside one of its ranges, with no more decimals
 * than that range is written with. A hint without ranges accepts any non-empty text.
 */
export function checkHintValue(hint: string | undefined, text: string): HintCheck {
  const value = text.trim();
  const ranges = parseHintRanges(hint);
  if (!ranges) return value === '' ? { ok: false, reason: 'not-a-number' } : { ok: true, value };
  if (!/^-?\d+(\.\d+)?$/.test(value)) return { ok: false, reason: 'not-a-number' };
  const n = Number(value);
  const decimals = value.split('.')[1]?.length ?? 0;
  const inside = ranges.filter((r) => n >= r.min - 1e-9 && n <= r.max + 1e-9);
  if (inside.length === 0) return { ok: false, reason: 'out-of-range' };
  if (!inside.some((r) => decimals <= r.decimals || Number.isInteger(n))) return { ok: false, reason: 'too-precise' };
  return { ok: true, value };
}
