/**
 * Issue 12: with a server node chosen (cookie sw_node), multipart uploads and download links go to
 * the node like every call; without one they stay on the page's own server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthDat } from '@sunwatch/protocol';
import { saveUrlAs } from '../../../app/download';
import { clearSession, saveLogin } from '../../../app/session';
import { uploadAction } from '../../../app/upload';
import { clearNode, setNode } from '../../../app/node-url';

const NODE = 'http://asia.example:8080';

class FakeXhr {
  static opened: string[] = [];
  upload = { onprogress: null };
  responseText = '{"err":0,"desc":"ERR_NONE","dat":{"ok":1}}';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(_method: string, url: string) {
    FakeXhr.opened.push(url);
  }
  send() {
    queueMicrotask(() => this.onload?.());
  }
}

describe('node-aware uploads and downloads', () => {
  beforeEach(() => {
    FakeXhr.opened = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    saveLogin({ secret: 's', token: 't', role: 1, usr: 'u', uid: 1 } as AuthDat, { remember: false });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearNode();
    clearSession();
  });

  it('a multipart upload goes to the chosen node, else to the own server', async () => {
    setNode(NODE);
    await uploadAction('distributeCollectorBySheet', { uid: 9 }, new Blob(['x']), 'a.xlsx');
    clearNode();
    await uploadAction('distributeCollectorBySheet', { uid: 9 }, new Blob(['x']), 'a.xlsx');
    expect(FakeXhr.opened).toHaveLength(2);
    expect(FakeXhr.opened[0]!.startsWith(`${NODE}/public/?sign=`)).toBe(true);
    expect(FakeXhr.opened[1]!.startsWith('/public/?sign=')).toBe(true);
  });

  it('a download link points at the chosen node, else at the own server', () => {
    const hrefs: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      hrefs.push(this.getAttribute('href') ?? '');
    });
    setNode(NODE);
    saveUrlAs('/export/file/3?exp=1&sig=x', 'a.xlsx');
    clearNode();
    saveUrlAs('/export/file/3?exp=1&sig=x', 'a.xlsx');
    click.mockRestore();
    expect(hrefs).toEqual([`${NODE}/export/file/3?exp=1&sig=x`, '/export/file/3?exp=1&sig=x']);
  });
});
