import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { registerSecurityHeaders } from './headers.js';

async function appWith(trustProxy: boolean) {
  const config = { ...loadConfig({}), trustProxy };
  const app = Fastify({ trustProxy });
  await registerSecurityHeaders(app, config);
  app.get('/x', () => 'ok');
  return app;
}

describe('HSTS', () => {
  it('only when a trusted proxy reports TLS', async () => {
    const direct = await appWith(false);
    const spoofed = await direct.inject({ url: '/x', headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
    expect(spoofed.headers['x-frame-options']).toBe('DENY');
    await direct.close();

    const proxied = await appWith(true);
    expect((await proxied.inject({ url: '/x' })).headers['strict-transport-security']).toBeUndefined();
    const tls = await proxied.inject({ url: '/x', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await proxied.close();
  });
});
