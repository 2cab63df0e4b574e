/**
 * Web error reporting (issue 16, spec §9 "Error reporting sample rates"): the kinds, bounds, sample
 * rates and secret scrubbing shared by the web reporter (apps/web/src/app/web-errors/), the server's
 * collector (modules/web-errors/) and the tests. No zod here: the web's entry chunk imports this
 * (the report schema is actions/web-errors-params.ts). docs/operations.md "Web error reporting".
 */

/** What an event is: a script error, a slow page (trace), a session's trail of UI events (replay). */
export const WEB_EVENT_KINDS = ['error', 'trace', 'replay'] as const;
export type WebEventKind = (typeof WEB_EVENT_KINDS)[number];

/** Where an event comes from (shown to the operator; free of secrets by construction). */
export const WEB_EVENT_SOURCES = [
  'onerror',
  'unhandledrejection',
  'boundary',
  'first-load',
  'navigation',
  'session',
] as const;
export type WebEventSource = (typeof WEB_EVENT_SOURCES)[number];

/** Kinds of breadcrumbs in a trail: route changes, clicks, action calls, console errors. */
export const WEB_BREADCRUMB_TYPES = ['route', 'click', 'action', 'error'] as const;
export type WebBreadcrumbType = (typeof WEB_BREADCRUMB_TYPES)[number];

/**
 * Spec §9: errors and traces are sampled at 1 (all sent), session replay at 0.1 (one session in
 * ten sends its trail), replay on error at 1 (an error always carries the trail before it).
 */
export const WEB_SAMPLE_RATES = { errors: 1, traces: 1, replay: 0.1, replayOnError: 1 } as const;

/** A page whose first load or route navigation takes longer than this (ms) is reported as a trace. */
export const WEB_SLOW_PAGE_MS = 3000;

/** Size bounds of a report (characters, counts); the schema refuses more (err 6), the reporter cuts before. */
export const WEB_REPORT_LIMITS = {
  message: 1000,
  stack: 8000,
  url: 1000,
  route: 200,
  release: 64,
  userAgent: 512,
  /** Breadcrumbs kept in a trail and sent with one event. */
  breadcrumbs: 50,
  breadcrumbMessage: 300,
  /** Events in one call. */
  eventsPerBatch: 20,
  /** Length of the `events` JSON of one call (keeps a call under the browser's 64 KB keepalive budget). */
  batchChars: 48_000,
} as const;

/**
 * Rate limits of the collector (err 13 once the window is full; a batch partly over the limit
 * keeps its first events and answers how many were dropped). Signed reports count per session,
 * unsigned ones (before sign-in) per client address, and all unsigned reports of one server
 * instance together.
 */
export const WEB_REPORT_RATE = {
  windowMs: 60_000,
  perSession: 60,
  perAddress: 20,
  publicPerInstance: 600,
} as const;

/** The reporter's own bounds: queue length, flush delay, replays per tab session. */
export const WEB_REPORTER = { maxQueue: 40, flushDelayMs: 2000, maxReplaysPerSession: 20 } as const;

/** A tab's random session id (not the sign-in session): folds repeats of one error in one tab. */
export const WEB_SID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

// ---------------------------------------------------------------------------------------------
// Scrubbing: no secret travels or is stored (wire-protocol.md §4a). The server applies its own
// redaction (security/redact.ts) too.

/** Names whose values are secret in URLs and text (the server's list plus the web's own keys). */
const SECRET_NAME = /pass|pwd|secret|token|sign|salt|auth|cookie|session/i;
const SECRET_NAMES = new Set(['rem', 'key', 'vkey', 'vcode', 'code', 'smscode', 'pprauth', 'company-key', 'invcode']);
const PUBLIC_NAMES = new Set(['authsource', 'designcompany', 'signal']);
export const SCRUBBED = '***';

/** Whether the value under this name is a secret. */
export function isSecretName(name: string): boolean {
  let n = name;
  try {
    n = decodeURIComponent(name);
  } catch {
    // keep the raw name
  }
  n = n.trim().toLowerCase();
  if (PUBLIC_NAMES.has(n)) return false;
  return SECRET_NAME.test(n) || SECRET_NAMES.has(n);
}

const PAIR = /([A-Za-z0-9_%.\-[\]]+)=([^&\s"'<>,;)#]*)/g;
const JSON_PAIR = /(["'])([^"'\s:]{1,64})\1(\s*:\s*)(["'])((?:\\.|(?!\4).)*)\4/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** Long hex runs (tokens are 64 hex, secrets 40): never useful to read, always a risk. */
const LONG_HEX = /\b[0-9a-f]{32,}\b/gi;

/** Text with secret values replaced: `name=value` pairs, quoted JSON pairs, bearer credentials, long hex runs. */
export function scrubSecrets(text: string): string {
  return text
    .replace(PAIR, (all, name: string) => (isSecretName(name) ? `${name}=${SCRUBBED}` : all))
    .replace(JSON_PAIR, (all, q: string, name: string, colon: string, vq: string) =>
      isSecretName(name) ? `${q}${name}${q}${colon}${vq}${SCRUBBED}${vq}` : all,
    )
    .replace(BEARER, (_all, scheme: string) => `${scheme} ${SCRUBBED}`)
    .replace(LONG_HEX, SCRUBBED);
}

/** A page address as reported: path and query with secrets replaced, no fragment. */
export function scrubUrl(url: string): string {
  const noHash = url.split('#')[0] ?? '';
  return scrubSecrets(noHash);
}

/** The first `max` characters of a text (never splitting a surrogate pair). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}
