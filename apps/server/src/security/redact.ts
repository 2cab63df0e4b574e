/**
 * Redaction of secrets in everything the server writes down: log lines (request URLs, error
 * messages, logged objects) and the stored parameters of the action log. The wire protocol
 * puts `sign`, `salt`, `token` and the login sign in the query string, and the vendor actions
 * carry RC4-wrapped password digests (`newpwd`, …); none of their values may be kept
 * (wire-protocol.md §4a), because a copied login URL could be replayed.
 */

/** A parameter, field or header name whose value is secret. */
export const SECRET_KEY_PATTERN = /pass|pwd|secret|token|sign|salt|auth|cookie/i;
/**
 * Names that do not match the pattern but hold secrets all the same (remember-me token; the
 * company key, a managed secret since issue 14's KEYList).
 */
const SECRET_KEYS = new Set(['rem', 'rememberme', 'smscode', 'pprauth', 'company-key']);
/** Names that match the pattern but hold no secret. */
const PUBLIC_KEYS = new Set(['authsource', 'designcompany', 'signal']);

export const REDACTED = '***';

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/** Whether the value under this name must never be written down (raw or percent-encoded name). */
export function isSecretKey(key: string): boolean {
  const k = decodeKey(key).trim().toLowerCase();
  if (PUBLIC_KEYS.has(k)) return false;
  return SECRET_KEY_PATTERN.test(k) || SECRET_KEYS.has(k);
}

/** `a=1&sign=abc&token=def` → `a=1&sign=***&token=***` (undecoded; order and keys kept). */
export function redactQueryString(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return isSecretKey(pair.slice(0, eq)) ? `${pair.slice(0, eq + 1)}${REDACTED}` : pair;
    })
    .join('&');
}

/** A request URL with the values of secret query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash);
  return `${url.slice(0, q + 1)}${redactQueryString(query)}${hash < 0 ? '' : url.slice(hash)}`;
}

// `key=value` pairs inside free text (URLs quoted in error messages, "token=…" in a message).
const PAIR_IN_TEXT = /([A-Za-z0-9_%.\-[\]]+)=([^&\s"'<>,;)]*)/g;
// `"key":"value"` / `'key': 'value'` inside free text (JSON quoted in a message).
const JSON_PAIR_IN_TEXT = /(["'])([^"'\s:]{1,64})\1(\s*:\s*)(["'])((?:\\.|(?!\4).)*)\4/g;

/** Replaces secret values inside free text: query pairs and quoted JSON pairs. */
export function redactText(text: string): string {
  if (!text.includes('=') && !text.includes(':')) return text;
  return text
    .replace(PAIR_IN_TEXT, (all, key: string) => (isSecretKey(key) ? `${key}=${REDACTED}` : all))
    .replace(JSON_PAIR_IN_TEXT, (all, q: string, key: string, colon: string, vq: string) =>
      isSecretKey(key) ? `${q}${key}${q}${colon}${vq}${REDACTED}${vq}` : all,
    );
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of a logged value with secrets removed: values under secret names are replaced,
 * strings are scanned for `key=value` pairs. Walks plain objects and arrays only (never
 * request or socket instances); errors go through `serializeError`.
 */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return serializeError(value, depth);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSecretKey(k) && v != null && v !== '' ? REDACTED : redactDeep(v, depth + 1);
  }
  return out;
}

/** pino's error shape (type, message, stack, own fields, cause) with secrets removed. */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return redactDeep(err, depth + 1);
  const out: Record<string, unknown> = {
    type: err.constructor?.name ?? 'Error',
    message: redactText(err.message),
    stack: err.stack === undefined ? undefined : redactText(err.stack),
  };
  for (const [k, v] of Object.entries(err)) {
    if (k in out) continue;
    out[k] = isSecretKey(k) && v != null && v !== '' ? REDACTED : redactDeep(v, depth + 1);
  }
  if (err.cause !== undefined && depth < 4) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/** The parameters of an action call with secret values replaced (action log, any logged params). */
export function redactParams(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    out[k] = isSecretKey(k) ? REDACTED : typeof v === 'string' ? redactText(v) : redactDeep(v);
  }
  return out;
}
