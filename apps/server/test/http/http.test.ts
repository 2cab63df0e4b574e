import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Envelope } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshIp, startTestServer, type TestServer } from '../harness.js';

describe.each(engines)('action log ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('logs every call with secrets redacted', async () => {
    const ip = freshIp();
    const login = await s.login('owner_anna', 'Owner_2026', { ip, isRem: true });
    expect(login.err).toBe(0);
    await s.call(login.dat!, 'queryAccountInfo', {}, { ip });
    await s.call(login.dat!, 'logout', { rem: login.dat!.rem! }, { ip });
    await s.login('owner_anna', 'bad password', { ip });
    await s.request('/public/?action=noSuchAction', { ip, headers: { 'user-agent': 'probe/1.0' } });
    await s.ctx.services.actionLog.flush();

    const rows = await s.ctx.db.selectFrom('action_log').selectAll().where('ip', '=', ip).orderBy('id').execute();
    expect(rows.map((r) => [r.action, r.err])).toEqual([
      ['authSource', 0],
      ['queryAccountInfo', 0],
      ['logout', 0],
      ['authSource', 16],
      ['noSuchAction', 9],
    ]);
    const anna = login.dat!.uid;
    expect(rows.slice(0, 4).map((r) => [r.account_id, r.usr])).toEqual([
      [anna, 'owner_anna'],
      [anna, 'owner_anna'],
      [anna, 'owner_anna'],
      [null, 'owner_anna'],
    ]);
    expect(rows[4]!.user_agent).toBe('probe/1.0');
    for (const r of rows) {
      expect(r.ts).toBeGreaterThan(1_600_000_000_000);
      expect(r.duration_ms).toBeGreaterThanOrEqual(0);
      const params = JSON.parse(r.params) as Record<string, string>;
      for (const k of ['sign', 'salt', 'token', 'rem']) if (k in params) expect(params[k]).toBe('***');
    }
    const all = JSON.stringify(rows);
    expect(all).not.toContain(login.dat!.token);
    expect(all).not.toContain(login.dat!.rem);
    expect(JSON.parse(rows[0]!.params)).toMatchObject({ sign: '***', salt: '***', usr: 'owner_anna', isRem: '1' });
  });
});

describe.each(engines)('single-page app ($name)', (engine) => {
  let s: TestServer;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Sunwatch</title><div id="root"></div>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log("app")');
    // the web build's precompressed variants (apps/web/vite.config.ts): here for app.js only
    fs.writeFileSync(path.join(webRoot, 'assets', 'app.js.gz'), zlib.gzipSync('console.log("app")'));
    fs.writeFileSync(path.join(webRoot, 'assets', 'app.js.br'), zlib.brotliCompressSync('console.log("app")'));
    fs.writeFileSync(path.join(webRoot, 'assets', 'plain.css'), 'body{margin:0}');
    s = await startTestServer(engine, { seed: false, config: { webRoot } });
  });
  afterAll(async () => {
    await s?.stop();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('serves index.html at / and for client routes (history fallback)', async () => {
    for (const p of ['/', '/entry', '/adminNew/device', '/generalNew/home?x=1']) {
      const res = await s.request(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/text\/html/);
      expect(res.text).toContain('<title>Sunwatch</title>');
    }
  });

  it('serves assets and answers 404 for a missing asset', async () => {
    const ok = await s.request('/assets/app.js');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('console.log');
    expect((await s.request('/assets/missing.js')).status).toBe(404);
    expect((await s.request('/favicon.ico')).status).toBe(404);
  });

  it('sends the precompressed variant the client accepts, else the file as it is', async () => {
    const get = (url: string, acceptEncoding?: string) =>
      s.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    const br = await get('/assets/app.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("app")');
    const gz = await get('/assets/app.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe('console.log("app")');
    const plain = await get('/assets/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe('console.log("app")');
    // no variant on disk: the file itself, even to a client that accepts compression
    const css = await get('/assets/plain.css', 'gzip, br');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.payload).toBe('body{margin:0}');
  });

  it('never falls back for API paths', async () => {
    for (const p of ['/upg/api/anything', '/api/x', '/public/nope']) {
      const res = await s.request(p);
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain('<title>');
    }
    const action = await s.request<Envelope<unknown>>('/public/?action=noSuchAction');
    expect(action.body.err).toBe(9);
  });
});
