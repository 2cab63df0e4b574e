import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorDesc } from '@sunwatch/protocol';
import type { AppContext } from '../context.js';

/**
 * HTTP ingestion (docs/contracts.md): `POST /ingest/v1/<PN>/data` and `/ingest/v1/<PN>/heartbeat`,
 * `Authorization: Bearer <device token>`, the same JSON bodies as MQTT. Answers `{err, desc}`:
 * 0 stored (HTTP 200, with `dat: {stored, duplicates, rejected}`), 385 bad or missing token (401,
 * checked before the body is read), 6 bad frame (400; 413 over MQTT_MAX_PACKET_BYTES; counted),
 * 13 queue full (503, retry later), 3 not stored (503, retry: the batch failed to commit).
 * Answers after the batch commit.
 */
export function registerIngestRoutes(app: FastifyInstance, ctx: AppContext): void {
  const ingest = ctx.services.telemetry.ingest;
  const bodyLimit = ctx.config.telemetry.limits.maxPacketBytes;
  void app.register((scope, _opts, done) => {
    // The body is taken raw whatever its content type, so bad JSON is ours to count.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, next) => next(null, body));
    const answer = (reply: FastifyReply, status: number, err: number, dat?: unknown) =>
      reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send(dat === undefined ? { err, desc: errorDesc(err) } : { err, desc: errorDesc(err), dat });
    const pnOf = (request: FastifyRequest) => (request.params as { pn?: string } | undefined)?.pn ?? '';

    // The token is checked before the body is read: an unauthenticated caller costs no parsing.
    scope.addHook('onRequest', async (request, reply) => {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!(await ingest.verifyToken(pnOf(request), token))) return answer(reply, 401, 385);
    });
    scope.setErrorHandler((error: { code?: string; statusCode?: number }, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
        ingest.countRefused(pnOf(request), 'too_large', 'http body');
        return reply
          .status(413)
          .type('application/json; charset=utf-8')
          .send({ err: 6, desc: `${errorDesc(6)}(too_large)`, detail: `body over ${bodyLimit} bytes` });
      }
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        ingest.countRefused(pnOf(request), 'schema', 'http request');
        return reply
          .status(400)
          .type('application/json; charset=utf-8')
          .send({ err: 6, desc: `${errorDesc(6)}(frame)` });
      }
      ctx.log.error({ err: error }, 'http ingest failed');
      return reply
        .header('retry-after', '5')
        .status(503)
        .type('application/json; charset=utf-8')
        .send({ err: 3, desc: errorDesc(3) });
    });

    for (const kind of ['data', 'heartbeat'] as const) {
      scope.post<{ Params: { pn: string } }>(`/ingest/v1/:pn/${kind}`, async (request, reply) => {
        const pn = request.params.pn;
        if (ingest.busy) return answer(reply, 503, 13);
        const body = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
        const r =
          kind === 'data'
            ? await ingest.submitData(pn, body, { wait: false })
            : await ingest.submitHeartbeat(pn, body, { wait: false });
        if (r.ok) return answer(reply, 200, 0, { stored: r.stored, duplicates: r.duplicates, rejected: r.rejected });
        if (r.reason === 'busy') return answer(reply, 503, 13);
        if (r.reason === 'internal') {
          reply.header('retry-after', '5');
          return answer(reply, 503, 3);
        }
        return reply
          .status(400)
          .type('application/json; charset=utf-8')
          .send({ err: 6, desc: `${errorDesc(6)}(${r.reason ?? 'frame'})`, detail: r.detail });
      });
    }
    done();
  });
}
