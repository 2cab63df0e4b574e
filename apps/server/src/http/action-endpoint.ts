import { ApiError, DEFAULT_LOCALE, type Locale } from '@sunwatch/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { Dispatcher, type DispatchRequest, type DispatchTrace } from './dispatcher.js';
import { okEnvelope, pickLocale } from './envelope.js';
import { decodePairs, hasPair, parseRaw, uniqueParams, type CallPair } from './params.js';
import type { HandlerMap } from './registry.js';
import { readMultipart, UploadDir } from './uploads.js';

/** Paths of the action endpoint (wire-protocol.md §1). */
export const ACTION_PATHS = ['/public/', '/public', '/remote/', '/remote'] as const;

/** Where the raw (undecoded) form body is kept on `request.body`. */
export const RAW_BODY = Symbol('sunwatch.rawBody');

/** Parser for @fastify/formbody: decoded fields plus the raw text under RAW_BODY. */
export function formBodyParser(text: string): Record<string, unknown> {
  const fields: Record<string | symbol, unknown> = { ...parseRaw(text) };
  Object.defineProperty(fields, RAW_BODY, { value: text, enumerable: false });
  return fields as Record<string, unknown>;
}

/** Per-request state of an action call: read by the error handler and the action log. */
export interface ActionCallState extends DispatchTrace {
  action: string;
  params: Record<string, string>;
  locale: Locale;
  err: number;
  startedAt: number;
  started: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    actionCall?: ActionCallState;
  }
}

function rawQueryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}

/**
 * The `x-eybond-action` header value: the action name with everything but visible ASCII
 * removed (a control or non-Latin-1 character would make the header invalid → HTTP 500).
 */
export function actionHeaderValue(action: string): string {
  return action.replace(/[^\x21-\x7e]/g, '').slice(0, 128);
}

/** Text for the action log: no control characters (PostgreSQL text refuses NUL). */
function loggable(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, max);
}

/** First occurrence of each key (only to name the action and language before the duplicate check). */
function parseFirst(pairs: readonly CallPair[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of pairs) if (!Object.prototype.hasOwnProperty.call(out, key)) out[key] = value;
  return out;
}

/** Told of every answered action call (the /metrics counters and latency histograms; issue 16). */
export interface ActionCallObserver {
  actionDone(action: string, err: number, ms: number): void;
}

/** The signed action endpoint: GET query, POST params in URL, POST form body, multipart. */
export function registerActionEndpoint(
  app: FastifyInstance,
  ctx: AppContext,
  handlers: HandlerMap,
  observer?: ActionCallObserver,
): void {
  const dispatcher = new Dispatcher(ctx, handlers);

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const query = rawQueryOf(request.url);
    const state: ActionCallState = {
      action: '',
      params: {},
      locale: DEFAULT_LOCALE,
      err: 3,
      accountId: null,
      usr: null,
      startedAt: ctx.now(),
      started: performance.now(),
    };
    request.actionCall = state;

    const multipart = request.method === 'POST' && request.isMultipart();
    let signed = query;
    let pairs = decodePairs(query);
    if (request.method === 'POST' && !multipart) {
      const raw = (request.body as Record<symbol, unknown> | undefined)?.[RAW_BODY];
      if (typeof raw === 'string' && raw.length > 0) {
        // The body is signed like a query string; when it lacks the action, it continues the URL's.
        signed = hasPair(raw, 'action') || !query ? raw : `${query}&${raw}`;
        pairs = [...pairs, ...decodePairs(raw)];
      }
    }

    // Action and language first (the error envelope needs them), then the duplicate check.
    state.params = parseFirst(pairs);
    state.action = state.params.action ?? '';
    state.locale = pickLocale(state.params, request.headers['accept-language']);
    void reply.header('x-eybond-action', actionHeaderValue(state.action));
    const params = uniqueParams(pairs);
    state.params = params;
    if (multipart && !/;\s*boundary=/i.test(request.headers['content-type'] ?? '')) throw new ApiError(6, 'boundary');

    const req: DispatchRequest = {
      action: state.action,
      params,
      signed,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
      locale: state.locale,
      files: [],
    };
    // Everything that needs no body is checked before a single byte of an upload is read.
    const call = await dispatcher.authorize(req, state);
    const uploads = multipart ? new UploadDir() : undefined;
    let dat: unknown;
    try {
      if (uploads) await readMultipart(request, call, params, uploads, (keys) => dispatcher.admitUnsigned(call, keys));
      req.files = uploads?.files ?? [];
      dat = await dispatcher.run(call, req, state);
    } finally {
      await uploads?.remove(); // before the answer leaves: the files live exactly as long as the call
    }
    state.err = 0;
    return reply.type('application/json; charset=utf-8').send(okEnvelope(dat));
  }

  for (const url of ACTION_PATHS) app.route({ method: ['GET', 'POST'], url, handler: handle });

  app.addHook('onResponse', async (request) => {
    const state = request.actionCall;
    if (!state) return;
    observer?.actionDone(state.action, state.err, performance.now() - state.started);
    ctx.services.actionLog.record({
      ts: state.startedAt,
      account_id: state.accountId,
      usr: state.usr === null ? null : loggable(state.usr, 64),
      action: loggable(state.action, 128),
      ip: request.ip.slice(0, 64),
      user_agent: (request.headers['user-agent'] ?? '').slice(0, 512),
      params: state.params,
      err: state.err,
      duration_ms: Math.round(performance.now() - state.started),
    });
  });
}
