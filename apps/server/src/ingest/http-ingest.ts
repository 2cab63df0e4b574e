import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorDesc } from '@sunwatch/protocol';
import type { AppContext } from '../context.js';

/**
 * HTTP ingestion (docs/contracts.md): `POST /ingest/v1/<PN>/data` and `/ingest/v1/<PN>/heartbeat`,
 * `Authorization: Bearer <device token>`, the same JSON bodies as MQTT. Answers `{err, desc}`:
 * 0 stored (HTTP 200, with `dat: {stored, duplicates, rejected}`), 385 bad or missing token (401),
 * 6 bad frame (400; counted), 13 queue full (503, retry later). Answers after the batch commit.
 */
export function registerIngestRoutes(app: FastifyInstance, ctx: AppContext): void {
  const ingest = ctx.services.telemetry.ingest;
  void app.register((scope, _opts, done) => {
    // The body is taken raw whatever its content type, so bad JSON is ours to count.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4 * 1024 * 1024 }, (_req, body, next) =>
      next(null, body),
    );
    const answer = (reply: FastifyReply, status: number, err: number, dat?: unknown) =>
      reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send(dat === undefined ? { err, desc: errorDesc(err) } : { err, desc: errorDesc(err), dat });

    for (const kind of ['data', 'heartbeat'] as const) {
      scope.post<{ Params: { pn: string } }>(`/ingest/v1/:pn/${kind}`, async (request, reply) => {
        const pn = request.params.pn;
        const auth = request.headers.authorization ?? '';
        const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
        if (!(await ingest.verifyToken(pn, token))) return answer(reply, 401, 385);
        if (ingest.busy) return answer(reply, 503, 13);
        const body = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
        const r =
          kind === 'data'
            ? await ingest.submitData(pn, body, { wait: false })
            : await ingest.submitHeartbeat(pn, body, { wait: false });
        if (r.ok) return answer(reply, 200, 0, { stored: r.stored, duplicates: r.duplicates, rejected: r.rejected });
        if (r.reason === 'busy') return answer(reply, 503, 13);
        if (r.reason === 'internal') return answer(reply, 500, 3);
        return reply
          .status(400)
          .type('application/json; charset=utf-8')
          .send({ err: 6, desc: `${errorDesc(6)}(${r.reason ?? 'frame'})`, detail: r.detail });
      });
    }
    done();
  });
}
