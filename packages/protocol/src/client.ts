import type { ActionName, Catalogue, Envelope, ParamsOf, ResultOf } from './actions/index.js';
import { actionAuth } from './actions/auth.js';
import { KEEP_EMPTY_VALUES } from './actions/empty-values.js';
import { ApiError, errorDesc, type ErrorCode } from './errors.js';
import { sha1Hex, signCall, signLogin } from './sign.js';

export interface ClientSession {
  secret: string;
  token: string;
}

export interface ClientOptions {
  /** Base URL of the action endpoint, e.g. `http://127.0.0.1:8080/public/` or `/public/`. */
  baseUrl: string;
  /** Company key sent with sign-in calls. */
  companyKey: string;
  /** The current session, read at every call. */
  getSession?: () => ClientSession | undefined;
  /** Locale sent as `i18n` (e.g. `en_US`). */
  getLocale?: () => string | undefined;
  fetch?: typeof fetch;
  /**
   * Salt generator; by default epoch milliseconds, strictly increasing per client so that two
   * identical calls in the same millisecond never carry the same sign (SIGN_POLICY=strict
   * refuses a sign seen twice, wire-protocol.md §4a).
   */
  salt?: () => string;
}

/** An error answer of the platform, with its localised message when the server gave one. */
export class ApiCallError extends Error {
  constructor(
    readonly err: number,
    readonly desc: string,
    readonly msg?: string,
  ) {
    super(msg ?? desc);
    this.name = 'ApiCallError';
  }
}

type Value = string | number | boolean | null | undefined;

/**
 * Query-string encoding used by Sunwatch's own clients: encodeURIComponent, pairs in given order.
 * Undefined and null are dropped, and empty strings too unless `keepEmpty` (KEEP_EMPTY_VALUES).
 */
export function encodePairs(params: Record<string, Value>, keepEmpty = false): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && (keepEmpty || v !== ''))
    .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('');
}

/** Epoch-millisecond salts, strictly increasing: a fresh timestamp each call (strict sign policy). */
export function timestampSalts(now: () => number = Date.now): () => string {
  let last = 0;
  return () => {
    last = Math.max(now(), last + 1);
    return String(last);
  };
}

/** The `dat` of an answer's text, or its error as ApiCallError (3 when the text is not an envelope). */
export function envelopeData<T>(text: string): T {
  let env: Envelope<T>;
  try {
    env = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new ApiCallError(3, errorDesc(3));
  }
  if (typeof env !== 'object' || env === null || typeof env.err !== 'number') throw new ApiCallError(3, errorDesc(3));
  if (env.err !== 0) throw new ApiCallError(env.err, env.desc, env.msg);
  return env.dat as T;
}

export function createApiClient(options: ClientOptions) {
  const doFetch = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const salt = options.salt ?? timestampSalts();

  async function send<T>(query: string, method: 'GET' | 'POST' = 'GET', body?: BodyInit): Promise<T> {
    const sep = options.baseUrl.includes('?') ? '&' : '?';
    let res: Response;
    try {
      res = await doFetch(`${options.baseUrl}${sep}${query}`, { method, body, credentials: 'same-origin' });
    } catch {
      throw new ApiCallError(3, errorDesc(3));
    }
    return envelopeData<T>(await res.text());
  }

  function withLocale(params: Record<string, Value>): Record<string, Value> {
    const locale = options.getLocale?.();
    return { source: 1, ...params, ...(locale && params.i18n === undefined ? { i18n: locale } : {}) };
  }

  /** The query string of a call: signed with the session for signed actions, salted for public ones. */
  function queryOf<N extends ActionName>(name: N, params: ParamsOf<Catalogue[N]>): string {
    // the auth kind only (actions/auth.ts): the catalogue's schemas stay out of the client
    const auth = actionAuth(name);
    const pairs = encodePairs(withLocale(params as Record<string, Value>), KEEP_EMPTY_VALUES.has(name));
    const tail = `&action=${encodeURIComponent(name)}${pairs}`;
    const s = salt();
    if (auth === 'signed') {
      const session = options.getSession?.();
      if (!session) throw new ApiCallError(10, errorDesc(10 satisfies ErrorCode));
      const sign = signCall(s, session.secret, session.token, tail);
      return `sign=${sign}&salt=${s}&token=${session.token}${tail}`;
    }
    if (auth === 'login') throw new ApiError(9, 'use login()');
    return `salt=${s}${tail}`;
  }

  return {
    /** Calls a signed or public action by name, fully typed from the catalogue. */
    async call<N extends ActionName>(name: N, params: ParamsOf<Catalogue[N]>): Promise<ResultOf<Catalogue[N]>> {
      return send(queryOf(name, params));
    },

    /**
     * Calls an action like `call`, its parameters (signed the same way) in a form-urlencoded POST
     * body instead of the URL: for large parameters (the web error reports). `keepalive` lets the
     * request outlive the page (pagehide). wire-protocol.md §1 "POST with a form-urlencoded body".
     */
    async post<N extends ActionName>(
      name: N,
      params: ParamsOf<Catalogue[N]>,
      init: { keepalive?: boolean } = {},
    ): Promise<ResultOf<Catalogue[N]>> {
      const body = queryOf(name, params);
      let res: Response;
      try {
        res = await doFetch(options.baseUrl, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          credentials: 'same-origin',
          ...(init.keepalive ? { keepalive: true } : {}),
        });
      } catch {
        throw new ApiCallError(3, errorDesc(3));
      }
      return envelopeData(await res.text());
    },

    /**
     * The URL of a call, signed like `call` (each use takes a fresh salt): for requests the client
     * does not send itself, such as a multipart upload with progress (its answer: `envelopeData`).
     */
    urlOf<N extends ActionName>(name: N, params: ParamsOf<Catalogue[N]>): string {
      const sep = options.baseUrl.includes('?') ? '&' : '?';
      return `${options.baseUrl}${sep}${queryOf(name, params)}`;
    },

    /** auth/authSource with the password digest (wire-protocol.md §2). */
    async login(usr: string, password: string, extra: { isRem?: boolean; action?: 'auth' | 'authSource' } = {}) {
      const action = extra.action ?? 'authSource';
      const params: Record<string, Value> = withLocale({
        usr,
        'company-key': options.companyKey,
        isRem: extra.isRem ? 1 : undefined,
      });
      const tail = `&action=${action}${encodePairs(params)}`;
      const s = salt();
      const sign = signLogin(s, sha1Hex(password), tail);
      return send<ResultOf<Catalogue['authSource']>>(`sign=${sign}&salt=${s}${tail}`);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
