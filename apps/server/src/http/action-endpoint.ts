import { DEFAULT_LOCALE, type Locale } from '@sunwatch/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { Dispatcher, type DispatchTrace } from './dispatcher.js';
import { okEnvelope, pickLocale } from './envelope.js';
import { hasPair, parseRaw } from './params.js';
import type { HandlerMap, UploadedFile } from './registry.js';

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

const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

function rawQueryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}

/** The signed action endpoint: GET query, POST params in URL, POST form body, multipart. */
export function registerActionEndpoint(app: FastifyInstance, ctx: AppContext, handlers: HandlerMap): void {
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

    let signed = query;
    let params = parseRaw(query);
    const files: UploadedFile[] = [];
    if (request.method === 'POST') {
      if (request.isMultipart()) {
        for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES } })) {
          if (part.type === 'file') {
            files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() });
          } else if (!Object.prototype.hasOwnProperty.call(params, part.fieldname)) {
            params[part.fieldname] = String(part.value);
          }
        }
      } else {
        const raw = (request.body as Record<symbol, unknown> | undefined)?.[RAW_BODY];
        if (typeof raw === 'string' && raw.length > 0) {
          // The body is signed like a query string; when it lacks the action, it continues the URL's.
          signed = hasPair(raw, 'action') || !query ? raw : `${query}&${raw}`;
          params = { ...params, ...parseRaw(raw) };
        }
      }
    }

    state.params = params;
    state.action = params.action ?? '';
    state.locale = pickLocale(params, request.headers['accept-language']);
    void reply.header('x-eybond-action', state.action);
    const dat = await dispatcher.dispatch(
      {
        action: state.action,
        params,
        signed,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        locale: state.locale,
        files,
      },
      state,
    );
    state.err = 0;
    return reply.type('application/json; charset=utf-8').send(okEnvelope(dat));
  }

  for (const url of ACTION_PATHS) app.route({ method: ['GET', 'POST'], url, handler: handle });

  app.addHook('onResponse', async (request) => {
    const state = request.actionCall;
    if (!state) return;
    ctx.services.actionLog.record({
      ts: state.startedAt,
      account_id: state.accountId,
      usr: state.usr,
      action: state.action.slice(0, 128),
      ip: request.ip.slice(0, 64),
      user_agent: (request.headers['user-agent'] ?? '').slice(0, 512),
      params: state.params,
      err: state.err,
      duration_ms: Math.round(performance.now() - state.started),
    });
  });
}
