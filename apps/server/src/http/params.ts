import { rawPairs } from '@sunwatch/protocol';

/** Decodes one query component: `+` is a space, malformed escapes stay as sent. */
export function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Parses a raw query string or form body into decoded parameters; the first occurrence wins. */
export function parseRaw(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of rawPairs(raw)) {
    const key = decodeComponent(k);
    if (!Object.prototype.hasOwnProperty.call(out, key)) out[key] = decodeComponent(v);
  }
  return out;
}

/** The raw (undecoded) value of the first pair named `key`. */
export function rawValue(raw: string, key: string): string | undefined {
  return rawPairs(raw).find(([k]) => k === key)?.[1];
}

/** True when the raw string holds a pair with this exact key. */
export function hasPair(raw: string, key: string): boolean {
  return rawPairs(raw).some(([k]) => k === key);
}
