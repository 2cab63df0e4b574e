import type { IngestLimitsConfig } from '../../config.js';

/**
 * Size limits of an ingest frame, checked before the frame costs anything (docs/security/ingest.md):
 * the byte count, then one cheap pass over the bytes (nesting depth and element count, strings
 * skipped) BEFORE `JSON.parse`, then the parsed shape (devices per frame, values per device).
 */
export type FrameLimits = Pick<IngestLimitsConfig, 'maxPacketBytes' | 'maxDevices' | 'maxValues' | 'maxDepth'>;

/** Elements (object members + array items, i.e. commas + 1 per container) a frame may carry at most. */
export function maxElements(l: FrameLimits): number {
  return l.maxDevices * (l.maxValues + 16) + 64;
}

/**
 * One pass over the raw bytes: undefined when the frame is within the limits, else why not.
 * Counts `{`/`[` depth and `,` separators outside strings (skipped with a native search, escapes
 * honoured); never allocates.
 */
export function scanFrameBytes(bytes: Uint8Array, l: FrameLimits): string | undefined {
  const n = bytes.length;
  if (n > l.maxPacketBytes) return `${n} bytes is over ${l.maxPacketBytes}`;
  const maxDepth = l.maxDepth;
  const maxCommas = maxElements(l);
  let depth = 0;
  let commas = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      // A string: jump to its closing quote (native search; a quote after an odd run of backslashes is escaped).
      let from = i + 1;
      for (;;) {
        const q = bytes.indexOf(0x22, from);
        if (q < 0) return undefined; // unterminated: JSON.parse refuses it
        let k = q - 1;
        while (k > i && bytes[k] === 0x5c) k--;
        if ((q - 1 - k) % 2 === 0) {
          i = q;
          break;
        }
        from = q + 1;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return `nesting deeper than ${maxDepth}`;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && ++commas > maxCommas) return `more than ${maxCommas} elements`;
  }
  return undefined;
}

/** The same limits for an already parsed value (in-process callers): depth and element count. */
export function scanFrameValue(value: unknown, l: FrameLimits): string | undefined {
  let budget = maxElements(l);
  const walk = (v: unknown, depth: number): string | undefined => {
    if (typeof v !== 'object' || v === null) return undefined;
    if (depth > l.maxDepth) return `nesting deeper than ${l.maxDepth}`;
    const items = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
    budget -= items.length;
    if (budget < 0) return `more than ${maxElements(l)} elements`;
    for (const x of items) {
      const why = walk(x, depth + 1);
      if (why) return why;
    }
    return undefined;
  };
  return walk(value, 1);
}

/** Named values + register words of one (schema-valid) device entry. */
export function valuesOfDevice(dev: {
  values?: Record<string, unknown> | undefined;
  registers?: ReadonlyArray<{ hex: string }> | undefined;
}): number {
  let n = dev.values ? Object.keys(dev.values).length : 0;
  for (const b of dev.registers ?? []) n += b.hex.length >> 2;
  return n;
}
