import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';

/**
 * The origin a tile template loads from, as a CSP source: `https://{s}.tile.example/{z}/{x}/{y}.png`
 * → `https://*.tile.example`. Undefined when it is not an http(s) template.
 */
export function tileSource(template: string | undefined): string | undefined {
  const m = template?.trim().match(/^(https?:)?\/\/([^/?#]+)/i);
  if (!m) return undefined;
  const host = m[2]!.replace(/\{[^}]*\}/g, '*');
  if (!/^[\w*.-]+(:\d+)?$/.test(host)) return undefined;
  // Protocol-relative: a scheme-less source follows the page's scheme, as the template does.
  return (m[1] ? `${m[1]}//${host}` : host).toLowerCase();
}

/** The Content-Security-Policy directives of the SPA and the API (helmet's camelCase names). */
export function cspDirectives(config: Pick<AppConfig, 'tileUrl'> & { branding?: Pick<AppConfig['branding'], 'nodeOrigins'> }): Record<string, string[]> {
  const tiles = tileSource(config.tileUrl);
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    // Vite emits module scripts only; no inline script, no eval.
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    // antd's css-in-js injects <style> elements at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    // issue 12: stored files (avatars, plant pictures) show from the chosen node
    imgSrc: ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : []), ...(config.branding?.nodeOrigins ?? [])],
    fontSrc: ["'self'", 'data:'],
    // issue 12: the configured server nodes (the web app calls the chosen node's API)
    connectSrc: ["'self'", ...(config.branding?.nodeOrigins ?? [])],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    mediaSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every answer (SPA, static files, /public/, ingest): CSP, X-Frame-Options
 * DENY, nosniff, Referrer-Policy no-referrer. HSTS only when a trusted proxy (TRUST_PROXY) says
 * the request came over TLS (X-Forwarded-Proto https): the server itself speaks plain HTTP.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: AppConfig): Promise<void> {
  const headers = await securityHeaders(config);
  app.addHook('onRequest', async (request, reply) => {
    // Set on the raw response as helmet does: a route's own header of the same name still wins.
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (config.trustProxy && request.protocol === 'https') void reply.header('strict-transport-security', HSTS_VALUE);
  });
}

/**
 * The headers helmet sets with our options, computed once: @fastify/helmet rebuilds helmet's
 * middleware (and parses the CSP directives) on every request, which was ~5 % of the CPU of a
 * signed call (issue 16 profile). The options are static (no CSP nonces), so one request through
 * helmet on a throw-away instance yields exactly the headers of every answer.
 */
async function securityHeaders(config: AppConfig): Promise<Array<[string, string]>> {
  const probe = Fastify();
  await probe.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  probe.get('/', (_request, reply) => reply.send(''));
  const bare = Fastify();
  bare.get('/', (_request, reply) => reply.send(''));
  try {
    const [withHelmet, without] = await Promise.all([probe.inject({ url: '/' }), bare.inject({ url: '/' })]);
    return Object.entries(withHelmet.headers)
      .filter(([name]) => !(name in without.headers))
      .map(([name, value]) => [name, String(value)]);
  } finally {
    await Promise.all([probe.close(), bare.close()]);
  }
}
