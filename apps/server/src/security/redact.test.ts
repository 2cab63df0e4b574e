import { describe, expect, it } from 'vitest';
import { cspDirectives, tileSource } from './headers.js';
import { isSecretKey, redactDeep, redactParams, redactText, redactUrl, serializeError } from './redact.js';

describe('redaction of secrets', () => {
  it('knows the secret names: the pattern, encoded names, the remember token', () => {
    for (const k of [
      'sign',
      'salt',
      'token',
      'secret',
      'pwd',
      'newpwd',
      'newpwdtext',
      'password',
      'userPass',
      'SIGN',
      '%73ign',
      'rem',
      'authorization',
      'cookie',
      'company-key',
    ]) {
      expect(isSecretKey(k), k).toBe(true);
    }
    for (const k of [
      'action',
      'usr',
      'uid',
      'source',
      'i18n',
      'pn',
      'devcode',
      'designCompany',
      'signal',
    ])
      expect(isSecretKey(k), k).toBe(false);
  });

  it('redacts query values in URLs, keeping order, names and other values', () => {
    expect(redactUrl('/public/?sign=abc&salt=123&token=t0k&action=x&usr=anna&%73ign=zz#frag')).toBe(
      '/public/?sign=***&salt=***&token=***&action=x&usr=anna&%73ign=***#frag',
    );
    expect(redactUrl('/entry')).toBe('/entry');
  });

  it('redacts pairs inside free text and quoted JSON pairs', () => {
    expect(redactText('GET /public/?token=abc&x=1 failed; pwd=hunter2')).toBe(
      'GET /public/?token=***&x=1 failed; pwd=***',
    );
    expect(redactText('{"secret":"s3cr3t","usr":"anna"}')).toBe('{"secret":"***","usr":"anna"}');
  });

  it('redacts objects deeply, errors included, without touching class instances', () => {
    const req = new (class Req {
      token = 'kept-because-not-plain';
    })();
    const out = redactDeep({ a: { password: 'p', list: [{ salt: 's' }], note: 'sign=zz' }, req }) as Record<
      string,
      unknown
    >;
    expect(out).toEqual({ a: { password: '***', list: [{ salt: '***' }], note: 'sign=***' }, req });
    const err = Object.assign(new Error('bad token=abc'), { code: 'E1', secret: 'x' });
    expect(serializeError(err)).toMatchObject({ type: 'Error', message: 'bad token=***', code: 'E1', secret: '***' });
    expect(redactParams({ newpwd: 'ab', usr: 'anna', q: 'salt=1' })).toEqual({
      newpwd: '***',
      usr: 'anna',
      q: 'salt=***',
    });
  });
});

describe('content security policy', () => {
  it('allows map tiles only from the configured tile origin', () => {
    expect(tileSource('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toBe('https://*.tile.example.org');
    expect(tileSource('//tiles.example.com:8443/{z}/{x}/{y}')).toBe('tiles.example.com:8443');
    expect(tileSource(undefined)).toBeUndefined();
    expect(tileSource('javascript:alert(1)')).toBeUndefined();
    expect(cspDirectives({}).imgSrc).toEqual(["'self'", 'data:', 'blob:']);
    expect(cspDirectives({ tileUrl: 'https://t.example/{z}/{x}/{y}.png' }).imgSrc).toContain('https://t.example');
    expect(cspDirectives({}).scriptSrc).toEqual(["'self'"]);
    // issue 12: the chosen node's stored files (avatars, plant pictures) show in this server's pages
    expect(cspDirectives({ branding: { nodeOrigins: ['http://asia.example'] } }).imgSrc).toContain('http://asia.example');
  });
});

describe('the server logger', () => {
  it('redacts an error logged without a message (pino would use its raw message)', async () => {
    const { Writable } = await import('node:stream');
    const Fastify = (await import('fastify')).default;
    const { loadConfig } = await import('../config.js');
    const { loggerOptions } = await import('./logger.js');
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const app = Fastify({ logger: loggerOptions({ ...loadConfig({}), logLevel: 'info', logStream }) });
    app.log.error(new Error('GET /public/?token=leak1111&usr=anna'));
    app.log.warn({ err: new Error('salt=leak2222') });
    app.log.info({ rem: 'leak3333', req: { url: '/x?sign=leak4444' } }, 'pwd=leak5555 done');
    await app.close();
    const text = lines.join('');
    expect(text).toContain('usr=anna');
    expect(text).toContain('done');
    for (const v of ['leak1111', 'leak2222', 'leak3333', 'leak4444', 'leak5555']) expect(text, v).not.toContain(v);
  });
});
