import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ApiError, errorDesc, type CustomDomainImageKind } from '@sunwatch/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { ACTION_PATHS } from '../../http/action-endpoint.js';
import { hostName } from './branding.service.js';

/** The domain check path of spec §7. */
export const DOMAIN_CHECK_PATH = '/hmi/api/hmi/domain/check/shineOrDess/auth/checkDomainPass/2';
const ASSET_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

type Query = Record<string, string | undefined>;
const q = (r: FastifyRequest): Query => (r.query ?? {}) as Query;
/** The host a page asks about: its parameter, else the Host header (the page's own host). */
const hostOf = (r: FastifyRequest, param: string | undefined): string => hostName(param || r.headers.host);

/**
 * The entry page's other services (spec §7), plain GETs outside the action endpoint: domain check
 * (look and options of the host), getTask (platform notice), consultParam/getParam (contact), the
 * host assets (`/branding/<host>/<file>`: logo, background, app QR images), and CORS for the action
 * endpoint from the configured nodes' pages (a page served by one node calls another after the
 * 261 retry or a node choice).
 */
export function registerBrandingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const service = ctx.services.branding;
  const origins = new Set(ctx.config.branding.nodeOrigins);

  app.addHook('onSend', async (request, reply, payload) => {
    const origin = request.headers.origin;
    if (origin && origins.has(origin) && ACTION_PATHS.some((p) => request.url.startsWith(p))) {
      void reply.header('access-control-allow-origin', origin);
      void reply.header('vary', 'Origin');
      // helmet's same-origin resource policy would make the browser drop the answer
      void reply.header('cross-origin-resource-policy', 'cross-origin');
    }
    // a stored file (capability URL) shows in the pages of the other nodes: <img> sends no Origin
    if (origins.size > 0 && request.url.startsWith('/files/')) void reply.header('cross-origin-resource-policy', 'cross-origin');
    return payload;
  });

  // A cross-node upload with progress (XMLHttpRequest upload listeners) is preflighted: the action
  // endpoint answers the preflight of the configured nodes' pages, and only theirs.
  for (const url of ACTION_PATHS) {
    app.options(url, async (request, reply) => {
      const origin = request.headers.origin;
      if (!origin || !origins.has(origin)) return reply.code(403).send();
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST')
        .header('access-control-allow-headers', 'content-type')
        .header('access-control-max-age', '600')
        .send();
    });
  }

  app.get(DOMAIN_CHECK_PATH, async (request, reply) => {
    const data = await service.domainCheck(hostOf(request, q(request).domainName));
    return reply.header('cache-control', 'no-store').send({ code: 0, data });
  });

  app.get('/getTask', async (request, reply) => {
    const lang = Number(q(request).client_language) === 1 ? 1 : 2;
    try {
      const dat = await service.notice(lang);
      return reply.header('cache-control', 'no-store').send({ err: 0, desc: 'ERR_NONE', dat });
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 1;
      return reply.send({ err: code, desc: errorDesc(code) });
    }
  });

  app.get('/consultParam/getParam', async (request, reply) => {
    const dat = await service.contact(hostOf(request, q(request).appID));
    return reply.header('cache-control', 'no-store').send({ err: 0, desc: 'ERR_NONE', dat });
  });

  app.get<{ Params: { host: string; file: string } }>('/branding/:host/:file', async (request, reply) => {
    const { host, file } = request.params;
    const ext = path.extname(file).toLowerCase();
    const type = ASSET_TYPES[ext];
    if (!type || !/^[\w.-]+$/.test(file) || !/^[\w.-]+$/.test(host) || host.startsWith('.')) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    // A custom domain's logo and background (issue 14) come from the database, whatever the folder holds.
    const kind = /^(logo|background)\.[a-z]+$/i.exec(file)?.[1]?.toLowerCase() as CustomDomainImageKind | undefined;
    const domain = kind ? await ctx.services.customDomains.byHost(host.toLowerCase()) : undefined;
    if (kind && domain) {
      const img = await ctx.services.customDomains.image(domain.host, kind);
      if (!img) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
      const sha = kind === 'logo' ? domain.logo_sha : domain.background_sha;
      // the entry page's URL carries the digest: that one may be cached, any other is revalidated
      const current = q(request).v !== undefined && sha.startsWith(q(request).v!) && q(request).v!.length >= 8;
      void reply
        .type(img.type)
        .header('cache-control', current ? 'public, max-age=86400' : 'no-cache')
        .header('x-content-type-options', 'nosniff');
      // an svg opened on its own runs nothing and loads nothing
      if (img.type === 'image/svg+xml') {
        void reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
      }
      return reply.send(Buffer.from(img.bytes));
    }
    const p = path.join(ctx.config.branding.dir, host, file);
    if (!existsSync(p) || !statSync(p).isFile()) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type(type)
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(p));
  });
}
