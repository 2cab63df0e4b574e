import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { signCall, UPLOAD_RULES, type AuthDat, type Envelope } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { installTestActions, uploadAction, type EchoDat } from '../test-actions.js';

/**
 * Attacker report, finding 2: uploads are read only after the call is verified, only for actions
 * that declare them, streamed to a temporary file with the size limit enforced while streaming.
 * The upload actions are test-only catalogue entries with the spec's limits.
 */
type Env<T = unknown> = Envelope<T>;

const uninstall = installTestActions([
  uploadAction('testUploadFirmware', UPLOAD_RULES.upgradeFirmware),
  uploadAction('testUploadImage', { ...UPLOAD_RULES.image, maxFiles: 2 }),
]);
afterAll(uninstall);

// The servers of this file put their uploads in a temporary folder of this file alone: another
// file running at the same time (the other worker) creates and removes its own upload folders in
// the system's, which made the counts below race. TMPDIR is restored for the worker's next file.
const systemTmp = process.env.TMPDIR;
const privateTmp = fs.mkdtempSync(`${os.tmpdir()}/sunwatch-uploads-test-`);
process.env.TMPDIR = privateTmp;
afterAll(() => {
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
  fs.rmSync(privateTmp, { recursive: true, force: true });
});

function uploadDirs(): string[] {
  return fs.readdirSync(privateTmp).filter((n) => n.startsWith('sunwatch-upload-'));
}

let saltSeq = 0;
function url(s: TestServer, session: { token: string; secret: string }, action: string, extra = ''): string {
  saltSeq += 1;
  const salt = String(s.clock.now() + saltSeq);
  const tail = `&action=${action}${extra}`;
  return `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
}

/**
 * Starts a multipart POST that announces `total` bytes of file but sends only the first `sent`,
 * and resolves with the server's answer (or 'no answer' after timeoutMs) while the upload is
 * still incomplete; then aborts the upload.
 */
function partialUpload(
  base: string,
  pathAndQuery: string,
  opts: { total: number; sent: number; field?: string; filename?: string; timeoutMs?: number },
): Promise<{ answeredEarly: boolean; body?: Env }> {
  const boundary = '----sunwatchtestboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'fw.bin'}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tailPart = Buffer.from(`\r\n--${boundary}--\r\n`);
  const u = new URL(base + pathAndQuery);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + opts.total + tailPart.length),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ answeredEarly: false });
    }, opts.timeoutMs ?? 5000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ answeredEarly: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Env });
      });
    });
    req.on('error', (e) => {
      if (!(e as NodeJS.ErrnoException).code?.startsWith('ECONNRESET')) reject(e);
    });
    req.write(head);
    req.write(Buffer.alloc(opts.sent, 0x61));
    // the rest of the announced file is never sent
  });
}

describe.each(engines)('uploads ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;

  beforeAll(async () => {
    s = await startTestServer(engine);
    anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('streams a declared file to a temporary file that is gone after the call', async () => {
    const before = uploadDirs().length;
    const bytes = Buffer.alloc(300 * 1024, 7);
    const fd = new FormData();
    fd.set('file', new Blob([bytes]), 'FW-1.BIN');
    const res = await s.request<Env<EchoDat>>(url(s, anna, 'testUploadFirmware'), { method: 'POST', body: fd });
    expect(res.body.err).toBe(0);
    const [file] = res.body.dat!.files;
    expect(file).toMatchObject({ field: 'file', filename: 'FW-1.BIN', size: bytes.length, bytes: bytes.length });
    expect(fs.existsSync(file!.path)).toBe(false);
    expect(uploadDirs().length).toBe(before);
  });

  it('refuses a file over the action limit while streaming (err 13) and leaves nothing on disk', async () => {
    const before = uploadDirs().length;
    const fd = new FormData();
    fd.set('file', new Blob([Buffer.alloc(UPLOAD_RULES.upgradeFirmware.maxBytes + 1)]), 'fw.bin');
    const res = await s.request<Env>(url(s, anna, 'testUploadFirmware'), { method: 'POST', body: fd });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ err: 13, desc: 'ERR_OVER_LIMITED(file)' });
    expect(uploadDirs().length).toBe(before);
    // exactly at the limit is fine
    const ok = new FormData();
    ok.set('file', new Blob([Buffer.alloc(UPLOAD_RULES.upgradeFirmware.maxBytes)]), 'fw.hex');
    expect((await s.request<Env>(url(s, anna, 'testUploadFirmware'), { method: 'POST', body: ok })).body.err).toBe(0);
  });

  it('refuses wrong extensions, undeclared fields, undeclared actions and too many files', async () => {
    const one = (field: string, name: string) => {
      const fd = new FormData();
      fd.set(field, new Blob([Buffer.from('x')]), name);
      return fd;
    };
    const post = (action: string, body: FormData) => s.request<Env>(url(s, anna, action), { method: 'POST', body });
    expect((await post('testUploadFirmware', one('file', 'fw.exe'))).body).toMatchObject({
      err: 6,
      desc: 'ERR_FORMAT_ERROR(file)',
    });
    expect((await post('testUploadImage', one('file', 'a.bin'))).body.err).toBe(6);
    expect((await post('testUploadImage', one('file', 'a.PNG'))).body.err).toBe(0);
    expect((await post('testUploadFirmware', one('other', 'fw.bin'))).body).toMatchObject({
      err: 6,
      desc: 'ERR_FORMAT_ERROR(other)',
    });
    expect((await post('queryAccountInfo', one('file', 'fw.bin'))).body.err).toBe(6);
    const three = new FormData();
    for (const n of ['a.png', 'b.png', 'c.png']) three.append('file', new Blob([Buffer.from('x')]), n);
    expect((await post('testUploadImage', three)).body.err).toBe(13);
  });

  it('answers a multipart request without boundary with err 6', async () => {
    const res = await s.request<Env>(url(s, anna, 'testUploadFirmware'), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'garbage',
    });
    expect(res.status).toBe(200);
    expect(res.body.err).toBe(6);
  });

  it('refuses an anonymous 50 MB upload before reading it: answered while the upload is incomplete', async () => {
    const before = uploadDirs().length;
    const total = 50 * 1024 * 1024;
    const sent = 256 * 1024;
    const rssBefore = process.memoryUsage().rss;
    // no token
    const anon = await partialUpload(s.url, '/public/?action=testUploadFirmware', { total, sent });
    expect(anon).toMatchObject({ answeredEarly: true, body: { err: 10 } });
    // a token but a forged sign
    const forged = await partialUpload(
      s.url,
      `/public/?sign=${'0'.repeat(40)}&salt=1&token=${anna.token}&action=testUploadFirmware`,
      { total, sent },
    );
    expect(forged).toMatchObject({ answeredEarly: true, body: { err: 4 } });
    // an unknown action
    expect(await partialUpload(s.url, '/public/?action=noSuchUpload', { total, sent })).toMatchObject({
      answeredEarly: true,
      body: { err: 9 },
    });
    // signed, but the action takes no file: refused at the file part's header
    expect(await partialUpload(s.url, url(s, anna, 'queryAccountInfo'), { total, sent })).toMatchObject({
      answeredEarly: true,
      body: { err: 6 },
    });
    // signed and declared, but announced beyond the limit: refused once the limit is passed
    expect(
      await partialUpload(s.url, url(s, anna, 'testUploadFirmware'), {
        total,
        sent: UPLOAD_RULES.upgradeFirmware.maxBytes + 4096,
      }),
    ).toMatchObject({ answeredEarly: true, body: { err: 13 } });
    expect(uploadDirs().length).toBe(before);
    // nothing close to the announced 250 MB was buffered
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it('refuses ten concurrent anonymous 50 MB uploads without buffering them', async () => {
    const total = 50 * 1024 * 1024;
    const rssBefore = process.memoryUsage().rss;
    const all = await Promise.all(
      Array.from({ length: 10 }, () =>
        partialUpload(s.url, '/public/?action=testUploadFirmware', { total, sent: 1024 * 1024 }),
      ),
    );
    expect(all.every((r) => r.answeredEarly && r.body?.err === 10)).toBe(true);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  });
});
