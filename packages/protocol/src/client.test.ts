import { describe, expect, it } from 'vitest';
import { ApiCallError, createApiClient, envelopeData, timestampSalts } from './client.js';
import { rawTail, sha1Hex, signCall, signLogin } from './sign.js';

/** The web app's client meets SIGN_POLICY=strict: every parameter signed, fresh ms salts. */
describe('createApiClient under the strict sign policy', () => {
  function recorder() {
    const urls: string[] = [];
    const fetch = (input: RequestInfo | URL) => {
      urls.push(String(input));
      return Promise.resolve(
        new Response(JSON.stringify({ err: 0, desc: 'ERR_NONE', dat: { token: 't', secret: 's' } })),
      );
    };
    return { urls, fetch: fetch as typeof globalThis.fetch };
  }

  it('signs every parameter but sign, salt and token, with a millisecond salt', async () => {
    const { urls, fetch } = recorder();
    const session = { secret: 'sec', token: 'tok' };
    const client = createApiClient({
      baseUrl: '/public/',
      companyKey: 'K',
      getSession: () => session,
      getLocale: () => 'de_DE',
      fetch,
    });
    await client.call('queryPlantInfo', { plantid: 7 });
    await client.login('anna smith', 'pw', { isRem: true });
    const [call = '', login = ''] = urls.map((u) => u.slice(u.indexOf('?') + 1));
    const params = new URLSearchParams(call);
    const tail = rawTail(call)!;
    expect(call.startsWith(`sign=${params.get('sign')}&salt=${params.get('salt')}&token=tok&action=`)).toBe(true);
    expect(params.get('sign')).toBe(signCall(params.get('salt')!, 'sec', 'tok', tail));
    expect(tail).toContain('&plantid=7');
    expect(tail).toContain('&i18n=de_DE');
    expect(Math.abs(Number(params.get('salt')) - Date.now())).toBeLessThan(60_000);
    const lp = new URLSearchParams(login);
    expect(login.startsWith(`sign=${lp.get('sign')}&salt=${lp.get('salt')}&action=authSource&`)).toBe(true);
    expect(lp.get('sign')).toBe(signLogin(lp.get('salt')!, sha1Hex('pw'), rawTail(login)!));
    expect(rawTail(login)).toContain('&isRem=1');
  });

  it('never repeats a salt, even within one millisecond', () => {
    const next = timestampSalts(() => 1_700_000_000_000);
    const salts = Array.from({ length: 5 }, next);
    expect(new Set(salts).size).toBe(5);
    expect(salts[0]).toBe('1700000000000');
    expect(salts.every((s) => /^\d{13}$/.test(s))).toBe(true);
  });

  it('keeps empty values only for the actions where they mean something (KEEP_EMPTY_VALUES), signed', async () => {
    const { urls, fetch } = recorder();
    const session = { secret: 'sec', token: 'tok' };
    const client = createApiClient({ baseUrl: '/public/', companyKey: 'K', getSession: () => session, fetch });
    await client.call('moveAccountGroup', { uid: '4,5', groupid: '' });
    await client.call('editSubAccount', { uid: 4, cname: '', email: undefined });
    await client.call('webQueryPlants', { plantName: '', page: 0, pagesize: 10 } as never);
    const [move = '', edit = '', plants = ''] = urls.map((u) => u.slice(u.indexOf('?') + 1));
    expect(rawTail(move)).toBe('&action=moveAccountGroup&source=1&uid=4%2C5&groupid=');
    expect(new URLSearchParams(move).get('sign')).toBe(signCall(new URLSearchParams(move).get('salt')!, 'sec', 'tok', rawTail(move)!));
    expect(rawTail(edit)).toBe('&action=editSubAccount&source=1&uid=4&cname=');
    expect(rawTail(plants)).not.toContain('plantName');
  });

  it('urlOf signs like call with a fresh salt; envelopeData reads an answer or throws its error', () => {
    const client = createApiClient({ baseUrl: '/public/', companyKey: 'K', getSession: () => ({ secret: 's', token: 't' }) });
    const a = client.urlOf('distributeCollectorBySheet', { uid: 9 });
    const b = client.urlOf('distributeCollectorBySheet', { uid: 9 });
    expect(a.startsWith('/public/?sign=')).toBe(true);
    const q = a.slice(a.indexOf('?') + 1);
    expect(new URLSearchParams(q).get('sign')).toBe(signCall(new URLSearchParams(q).get('salt')!, 's', 't', rawTail(q)!));
    expect(a).not.toBe(b);
    expect(envelopeData<{ ok: number }>('{"err":0,"desc":"ERR_NONE","dat":{"ok":1}}')).toEqual({ ok: 1 });
    expect(() => envelopeData('{"err":11,"desc":"ERR_NO_PERMISSION","msg":"No"}')).toThrow(new ApiCallError(11, 'ERR_NO_PERMISSION', 'No'));
    expect(() => envelopeData('<html>')).toThrow(ApiCallError);
  });
});
