import { ApiCallError } from '@sunwatch/protocol';
import { describe, expect, it, vi } from 'vitest';
import { nodeUrl } from '../../../app/node-url';
import { otherNode, withNodeRetry, type NodeRetryDeps } from './node-retry';

const A = { name: 'Europe', url: '' };
const B = { name: 'Asia', url: 'http://asia.example' };

function deps(over: Partial<NodeRetryDeps> = {}): NodeRetryDeps & { cookie: string[] } {
  const cookie: string[] = [];
  let current = '';
  return {
    cookie,
    production: true,
    defaults: () => Promise.resolve([A, B]),
    get: () => current,
    set: (u) => {
      current = u;
      cookie.push(`set ${u}`);
    },
    clear: () => {
      current = '';
      cookie.push('clear');
    },
    ...over,
  };
}

describe('login node retry (spec §4)', () => {
  it('toggles to the other default node after 261 and retries once, keeping the cookie on success', async () => {
    const d = deps();
    const login = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new ApiCallError(261, 'ERR_USER_NOT_FOUND'))
      .mockImplementationOnce(() => Promise.resolve(`ok on ${d.get()}`));
    await expect(withNodeRetry(login, d)).resolves.toBe('ok on http://asia.example');
    expect(login).toHaveBeenCalledTimes(2);
    expect(d.cookie).toEqual(['set http://asia.example']);
  });

  it('removes the cookie and shows the second error when the retry fails too', async () => {
    const d = deps();
    const login = vi.fn(() => Promise.reject(new ApiCallError(261, 'ERR_USER_NOT_FOUND')));
    await expect(withNodeRetry(login, d)).rejects.toMatchObject({ err: 261 });
    expect(login).toHaveBeenCalledTimes(2);
    expect(d.cookie).toEqual(['set http://asia.example', 'clear']);
  });

  it('does not retry outside production, on other errors, or without two default nodes', async () => {
    for (const [d, err] of [
      [deps({ production: false }), 261],
      [deps(), 16],
      [deps({ defaults: () => Promise.resolve([A]) }), 261],
      [deps({ defaults: () => Promise.reject(new Error('offline')) }), 261],
    ] as const) {
      const login = vi.fn(() => Promise.reject(new ApiCallError(err, 'x')));
      await expect(withNodeRetry(login, d)).rejects.toMatchObject({ err });
      expect(login).toHaveBeenCalledTimes(1);
      expect(d.cookie).toEqual([]);
    }
  });

  it('toggles between the two defaults whichever is current', () => {
    expect(otherNode('', [A, B])).toBe(B);
    expect(otherNode(B.url, [A, B])).toBe(A);
    expect(otherNode('http://elsewhere.example', [A, B])).toBe(B);
    expect(otherNode('', [A])).toBeUndefined();
  });

  it('sends action calls, uploads, downloads and stored files, and only them, to the chosen node', () => {
    expect(nodeUrl('/public/?action=x', 'http://asia.example')).toBe('http://asia.example/public/?action=x');
    expect(nodeUrl('/remote/?action=x', 'http://asia.example')).toBe('http://asia.example/remote/?action=x');
    expect(nodeUrl('/export/file/7?exp=1&sig=a', 'http://asia.example')).toBe('http://asia.example/export/file/7?exp=1&sig=a');
    expect(nodeUrl('/export/report/7?exp=1&sig=a', 'http://asia.example')).toBe('http://asia.example/export/report/7?exp=1&sig=a');
    expect(nodeUrl('/files/avatar/ab.jpg', 'http://asia.example')).toBe('http://asia.example/files/avatar/ab.jpg');
    expect(nodeUrl('/public/?action=x', '')).toBe('/public/?action=x');
    // the page's own services, look-alike paths, absolute URLs and data URLs stay where they are
    expect(nodeUrl('/getTask?client=1', 'http://asia.example')).toBe('/getTask?client=1');
    expect(nodeUrl('/publicity/x', 'http://asia.example')).toBe('/publicity/x');
    expect(nodeUrl('/branding/h/logo.png', 'http://asia.example')).toBe('/branding/h/logo.png');
    expect(nodeUrl('https://apps.example/x', 'http://asia.example')).toBe('https://apps.example/x');
    expect(nodeUrl('blob:http://x/1', 'http://asia.example')).toBe('blob:http://x/1');
    // a cookie value that is not an origin is never used as a base
    expect(nodeUrl('/public/?action=x', 'javascript:alert(1)')).toBe('/public/?action=x');
  });
});
