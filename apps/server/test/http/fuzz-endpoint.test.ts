import { ACTION_NAMES, signCall, type AuthDat, type Envelope } from '@sunwatch/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';

/**
 * CI fuzz of the action endpoint (attacker report, finding 3): action names, parameters,
 * encodings, form bodies and multipart bodies, signed and unsigned, against a real server on
 * loopback. Fails on any HTTP 5xx or err 3. Deterministic (fixed seed), bounded in runs and time.
 */
type Env = Envelope<unknown>;

const SEED = 20261124;
const RUNS = 300;
const TIME_LIMIT_MS = 20_000;

/** Raw (already percent-encoded) fragments that have broken or could break parsing. */
const NASTY = [
  '%E2%82%AC',
  '%0d%0a',
  '%0D%0A',
  '%00',
  '%',
  '%Z',
  '%E0%A4%A',
  '%C3%28',
  '%FF',
  '%7F',
  '+',
  '%2B',
  '%26',
  '%3D',
  '=',
  '&&',
  '%61ction',
  '__proto__',
  'constructor',
  '%5B%5D',
  '[]',
  '..%2F',
  '%F0%9F%98%80',
];

const rawText = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
  fc.string({ unit: 'binary', maxLength: 8 }).map((s) => encodeURIComponent(s)),
  fc.array(fc.constantFrom(...NASTY), { maxLength: 3 }).map((a) => a.join('')),
);
const actionName = fc.oneof(
  { arbitrary: fc.constantFrom(...ACTION_NAMES), weight: 6 },
  { arbitrary: fc.constantFrom('testNothing', ''), weight: 1 },
  { arbitrary: rawText, weight: 2 },
  { arbitrary: fc.constantFrom(...ACTION_NAMES).chain((n) => fc.constantFrom(...NASTY).map((x) => n + x)), weight: 1 },
);
const pair = fc.tuple(
  fc.oneof(
    {
      arbitrary: fc.constantFrom(
        'plantid',
        'pn',
        'sn',
        'devcode',
        'devaddr',
        'page',
        'pagesize',
        'uid',
        'i18n',
        'lang',
        'sign',
        'salt',
        'token',
        'action',
        'newpwd',
        'rem',
        'usr',
        'company-key',
        'isRem',
        'date',
        'page',
        'pagesize',
      ),
      weight: 3,
    },
    { arbitrary: rawText, weight: 1 },
  ),
  rawText,
);

interface FuzzCall {
  action: string;
  before: Array<[string, string]>;
  after: Array<[string, string]>;
  signMode: 'none' | 'valid' | 'bogus';
  salt: string;
  body: 'none' | 'form' | 'multipart' | 'multipart-noboundary' | 'multipart-broken' | 'json' | 'odd-type';
  bodyPairs: Array<[string, string]>;
  file: boolean;
}

const fuzzCall: fc.Arbitrary<FuzzCall> = fc.record({
  action: actionName,
  before: fc.array(pair, { maxLength: 2 }),
  after: fc.array(pair, { maxLength: 4 }),
  signMode: fc.constantFrom('none', 'valid', 'valid', 'bogus'),
  salt: fc.oneof(fc.constantFrom('12345678', '', '%00', 'now'), rawText),
  body: fc.constantFrom(
    'none',
    'none',
    'form',
    'multipart',
    'multipart-noboundary',
    'multipart-broken',
    'json',
    'odd-type',
  ),
  bodyPairs: fc.array(pair, { maxLength: 3 }),
  file: fc.boolean(),
});

const join = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `&${k}=${v}`).join('');

function decodeLoosely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function multipartBody(
  pairs: Array<[string, string]>,
  file: boolean,
  boundary: string,
  broken: boolean,
): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  for (const [k, v] of pairs) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${decodeLoosely(k).replace(/["\r\n]/g, '')}"\r\n\r\n${decodeLoosely(v)}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(Buffer.alloc(2048, 1));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(broken ? `--${boundary}\r\nContent-Disp` : `--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(parts));
}

describe.each(engines)('endpoint fuzz ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;
  const seen: Array<{ url: string; status: number; err: unknown }> = [];

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { replayProtection: false } });
    anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('answers malformed action names with err 9 and a clean header, never 5xx', async () => {
    for (const name of [
      '%E2%82%AC',
      '%0d%0a',
      '%00',
      'a%0d%0aSet-Cookie:%20x=1',
      '%C3%A9t%C3%A9',
      '%FF',
      '%',
      'queryAccountInfo%00',
    ]) {
      const res = await s.request<Env>(`/public/?action=${name}`);
      expect(res.status, name).toBe(200);
      expect(res.body.err, name).toBe(9);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.headers.get('x-eybond-action') ?? '').toMatch(/^[\x21-\x7e]*$/);
    }
  });

  it('never answers 5xx or err 3 to random calls', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzCall, async (c) => {
        const salt = c.salt === 'now' ? String(s.clock.now()) : c.salt;
        const tail = `&action=${c.action}${join(c.after)}`;
        let prefix = '';
        if (c.signMode !== 'none') {
          const sign =
            c.signMode === 'valid' ? signCall(decodeLoosely(salt), anna.secret, anna.token, tail) : 'f'.repeat(40);
          prefix = `sign=${sign}&salt=${salt}&token=${anna.token}`;
        }
        const query = `${prefix}${join(c.before)}${tail}`.replace(/^&/, '');
        const url = `/public/?${query}`;
        let init: RequestInit = {};
        const boundary = 'fuzzBoundary7MA4YWxk';
        switch (c.body) {
          case 'form':
            init = {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: join(c.bodyPairs).slice(1),
            };
            break;
          case 'multipart':
          case 'multipart-broken':
            init = {
              method: 'POST',
              headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
              body: multipartBody(c.bodyPairs, c.file, boundary, c.body === 'multipart-broken'),
            };
            break;
          case 'multipart-noboundary':
            init = {
              method: 'POST',
              headers: { 'content-type': 'multipart/form-data' },
              body: multipartBody(c.bodyPairs, c.file, boundary, false),
            };
            break;
          case 'json':
            init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":' };
            break;
          case 'odd-type':
            init = { method: 'POST', headers: { 'content-type': 'text/x-unknown' }, body: 'x=1' };
            break;
        }
        const res = await s.request<Env>(url, init);
        seen.push({ url, status: res.status, err: (res.body as Env | undefined)?.err });
        if (res.status >= 500) throw new Error(`HTTP ${res.status} for ${c.body} ${url}: ${res.text.slice(0, 200)}`);
        if (typeof res.body === 'object' && res.body !== null && (res.body as Env).err === 3) {
          throw new Error(`err 3 for ${c.body} ${url}: ${res.text.slice(0, 200)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    );
    if (process.env.FUZZ_DEBUG)
      console.log(
        JSON.stringify(
          seen.reduce<Record<string, number>>(
            (h, r) => ({ ...h, [`${r.status}:${String(r.err)}`]: (h[`${r.status}:${String(r.err)}`] ?? 0) + 1 }),
            {},
          ),
        ),
      );
    expect(seen.length).toBeGreaterThan(20);
  });
});
