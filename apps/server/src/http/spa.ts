import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorEnvelope } from './envelope.js';
import { ApiError, DEFAULT_LOCALE } from '@sunwatch/protocol';

/** Path prefixes that belong to APIs and never fall back to the SPA. */
const API_PREFIXES = ['/public', '/remote', '/upg', '/api'];

function isApiPath(url: string): boolean {
  const p = url.split('?')[0]!;
  return API_PREFIXES.some((prefix) => p === prefix || p.startsWith(prefix + '/'));
}

/**
 * Serves the built SPA from `webRoot` when it exists, with history fallback: a GET that is not
 * an API path and not a file with an extension answers index.html; a missing asset is 404.
 * Compressed: the web build writes `<file>.br` and `<file>.gz` beside every text asset
 * (apps/web/vite.config.ts), sent to clients that accept them (`Vary: Accept-Encoding`);
 * files without them go out as they are.
 */
export async function registerSpa(app: FastifyInstance, webRoot: string): Promise<void> {
  const index = path.join(webRoot, 'index.html');
  const hasSpa = fs.existsSync(index);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: true,
      index: ['index.html'],
      preCompressed: true,
      // the body depends on Accept-Encoding: shared caches must keep the variants apart
      setHeaders: (res) => {
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const looksLikeFile = path.posix.extname(pathname) !== '';
    if (hasSpa && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(pathname) && !looksLikeFile) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.status(404).send(errorEnvelope(new ApiError(9, 'NOT_FOUND'), DEFAULT_LOCALE));
  });
}
