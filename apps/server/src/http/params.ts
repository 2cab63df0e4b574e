import { ApiError, rawPairs } from '@sunwatch/protocol';

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

/** One parameter of a call: its decoded key and value. */
export interface CallPair {
  key: string;
  value: string;
}

/** The decoded pairs of a raw query string or form body, in order, duplicates kept. */
export function decodePairs(raw: string): CallPair[] {
  return rawPairs(raw).map(([k, v]) => ({ key: decodeComponent(k), value: decodeComponent(v) }));
}

/**
 * The parameters of a call from all its sources (query, form body, multipart fields). A key
 * that appears twice, raw or only after decoding (`action` and `%61ction`), is refused with
 * err 6 naming it (wire-protocol.md §4a): which occurrence "wins" must never be a question.
 */
export function uniqueParams(pairs: readonly CallPair[], into: Record<string, string> = {}): Record<string, string> {
  for (const { key, value } of pairs) addParam(into, key, value);
  return into;
}

/** Adds one parameter; err 6 when the key is already present. */
export function addParam(params: Record<string, string>, key: string, value: string): void {
  if (Object.prototype.hasOwnProperty.call(params, key)) throw new ApiError(6, printableKey(key));
  // defineProperty, not assignment: a key named `__proto__` stays a plain parameter.
  Object.defineProperty(params, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A key as it may appear in `desc`: printable ASCII only, bounded. */
export function printableKey(key: string): string {
  return key.replace(/[^\x20-\x7e]/g, '?').slice(0, 64);
}
