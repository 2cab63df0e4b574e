import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { REPORT_ROUTE } from './report-files.service.js';

/**
 * GET /export/report/:id?exp=…&sig=… — the signed download of a ready report file (the address
 * comes from queryReportFileUrl: HMAC of id and expiry, valid 5 minutes). Anything wrong → 404,
 * without saying what.
 */
export function registerReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(`${REPORT_ROUTE}/:id`, async (req, reply) => {
    const file = await ctx.services.reports.files.download(Number(req.params.id), Number(req.query.exp), String(req.query.sig ?? ''));
    if (!file) return reply.code(404).type('text/plain').send('Not found');
    return reply
      .header('content-type', file.mime)
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .send(file.data);
  });
}
