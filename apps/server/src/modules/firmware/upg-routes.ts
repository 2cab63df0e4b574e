import { DEFAULT_LOCALE, UPG_ACTION_PREFIX, UPG_BLOB_PREFIX, UPG_UPLOAD_PATH, upgSign, ApiError } from '@sunwatch/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { Dispatcher, saltInstant, type DispatchRequest } from '../../http/dispatcher.js';
import type { ActionCallState } from '../../http/action-endpoint.js';
import { okEnvelope, pickLocale } from '../../http/envelope.js';
import type { HandlerMap } from '../../http/registry.js';
import { readMultipart, UploadDir } from '../../http/uploads.js';
import { FIRMWARE_DOWNLOAD_ROUTE } from './firmware.service.js';

/** Largest JSON body of a generic call. */
const JSON_LIMIT = 64 * 1024;

function header(request: FastifyRequest, name: string): string {
  const v = request.headers[name];
  return typeof v === 'string' ? v : '';
}

function timingSafeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i += 1) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

/** Every value of a query or JSON object as the action endpoint's string parameters (objects as JSON). */
function stringParams(obj: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === null) continue;
    out[k] = typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean);
  }
  return out;
}

/**
 * The upgrade service of spec §7 (docs/firmware/library.md): `POST multipart
 * /upg/api/auth/web/shineDess/device/upgrade/uploadFirmware (file, desc)`, generic calls
 * `/upg/api/action/<action>` (POST JSON, GET query, PUT JSON or query, DELETE query) and the blob
 * download `/upg/api/blob/<firmware>`, all authenticated by the headers token, i18n and sign
 * (upgSign in @sunwatch/protocol). They run the catalogue's actions through the dispatcher: the
 * same role, permission, scoping and audit as the action endpoint. Also the signed-address
 * download that downloadFirmware hands out.
 */
export function registerUpgRoutes(app: FastifyInstance, ctx: AppContext, handlers: HandlerMap): void {
  const dispatcher = new Dispatcher(ctx, handlers);

  function begin(request: FastifyRequest, action: string): ActionCallState {
    const locale = pickLocale({ i18n: header(request, 'i18n') }, request.headers['accept-language']);
    const state: ActionCallState = {
      action,
      params: {},
      locale: locale ?? DEFAULT_LOCALE,
      err: 3,
      accountId: null,
      usr: null,
      startedAt: ctx.now(),
      started: performance.now(),
    };
    request.actionCall = state;
    return state;
  }

  /** Token and sign of the headers; `t` of the query is the request's instant (replay window). */
  async function authorize(request: FastifyRequest, state: ActionCallState, body: string) {
    const token = header(request, 'token');
    const sign = header(request, 'sign').toLowerCase();
    const t = new URL(request.url, 'http://x').searchParams.get('t') ?? '';
    const instant = saltInstant(t);
    if (instant === undefined || Math.abs(ctx.now() - instant) > ctx.config.saltWindowMs) throw new ApiError(5);
    return dispatcher.authorizeSession(
      state.action,
      token,
      (secret) => timingSafeEqualHex(sign, upgSign(secret, token, request.method, request.url, body)),
      sign, // 64 hex digits: never one of the action endpoint's 40-digit SHA-1 signs
      instant,
      state,
    );
  }

  function request0(request: FastifyRequest, state: ActionCallState, params: Record<string, string>): DispatchRequest {
    return { action: state.action, params, signed: '', ip: request.ip, userAgent: request.headers['user-agent'] ?? '', locale: state.locale, files: [] };
  }

  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: JSON_LIMIT }, (_req, body, done) => {
      done(null, body);
    });

    scope.post(UPG_UPLOAD_PATH, async (request, reply) => {
      const state = begin(request, 'uploadFirmware');
      if (!request.isMultipart()) throw new ApiError(6, 'multipart');
      const call = await authorize(request, state, '');
      const query = stringParams(request.query as Record<string, unknown>);
      delete query.t;
      const params = { ...query };
      const uploads = new UploadDir();
      let dat: unknown;
      try {
        // The form's text fields (desc, …) are outside the sign: accepted only where the query has not set them.
        await readMultipart(request, call, params, uploads, () => undefined);
        const req = request0(request, state, params);
        req.files = uploads.files;
        dat = await dispatcher.run(call, req, state);
      } finally {
        await uploads.remove();
      }
      state.err = 0;
      return reply.type('application/json; charset=utf-8').send(okEnvelope(dat));
    });

    const generic = async (request: FastifyRequest<{ Params: { action: string } }>, reply: FastifyReply) => {
      const state = begin(request, request.params.action);
      const raw = typeof request.body === 'string' ? request.body : '';
      const call = await authorize(request, state, raw);
      const params = stringParams(request.query as Record<string, unknown>);
      delete params.t;
      if (raw !== '') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new ApiError(6, 'body');
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ApiError(6, 'body');
        for (const [k, v] of Object.entries(stringParams(parsed as Record<string, unknown>))) {
          if (Object.prototype.hasOwnProperty.call(params, k)) throw new ApiError(6, k);
          params[k] = v;
        }
      }
      const dat = await dispatcher.run(call, request0(request, state, params), state);
      state.err = 0;
      return reply.type('application/json; charset=utf-8').send(okEnvelope(dat));
    };
    scope.route({ method: ['GET', 'POST', 'PUT', 'DELETE'], url: `${UPG_ACTION_PREFIX}/:action`, handler: generic });

    // The image itself, to a caller that sees the firmware (downloadFirmware's permission).
    scope.get<{ Params: { code: string } }>(`${UPG_BLOB_PREFIX}/:code`, async (request, reply) => {
      const state = begin(request, 'downloadFirmware');
      const call = await authorize(request, state, '');
      if (!call.caller) throw new ApiError(10);
      const opened = await ctx.services.firmware.openFor(call.caller, request.params.code);
      state.err = 0;
      request.actionCall = undefined; // the answer is the file, not an envelope
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(opened.size))
        .header('x-checksum-sha256', opened.sha256)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(opened.name)}`)
        .send(opened.stream);
    });
  });

  // The signed address of downloadFirmware (HMAC of code and expiry, 5 minutes): no session needed.
  app.get<{ Params: { code: string }; Querystring: { exp?: string; sig?: string } }>(
    `${FIRMWARE_DOWNLOAD_ROUTE}/:code`,
    async (request, reply) => {
      const opened = await ctx.services.firmware.openSigned(request.params.code, Number(request.query.exp), String(request.query.sig ?? ''));
      if (!opened) return reply.code(404).type('text/plain').send('Not found');
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(opened.size))
        .header('x-checksum-sha256', opened.sha256)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(opened.name)}`)
        .send(opened.stream);
    },
  );
}
