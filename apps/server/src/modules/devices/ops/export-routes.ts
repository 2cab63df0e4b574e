import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { EXPORT_ROUTE } from './report-export.service.js';

/**
 * GET /export/file/:id?exp=…&sig=… — the signed download of a ready export file (the address
 * comes from queryExportFileUrl: HMAC of id and expiry, valid a few minutes). Anything wrong → 404,
 * without saying what.
 */
export function registerExportRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(`${EXPORT_ROUTE}/:id`, async (req, reply) => {
    const file = await ctx.services.deviceOps.reports.download(
      Number(req.params.id),
      Number(req.query.exp),
      String(req.query.sig ?? ''),
    );
    if (!file) return reply.code(404).type('text/plain').send('Not found');
    return reply
      .header('content-type', file.mime)
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .send(file.data);
  });
}
