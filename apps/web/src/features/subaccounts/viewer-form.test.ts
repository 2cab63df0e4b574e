import { describe, expect, it } from 'vitest';
import { rc4DecryptHex, sha1Hex } from '@sunwatch/protocol';
import { fetchAllPlants } from './api/queries';
import { VIEWER_LIST_SPEC, viewerListParams } from './api/list-params';
import { readListState } from '../../components/list';
import {
  addViewerParams,
  editViewerParams,
  emptyViewerForm,
  fieldOfError,
  viewerFormErrors,
  viewerFormOf,
  type ViewerFormValues,
} from './viewer-form';

const SECRET = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';
const form = (over: Partial<ViewerFormValues> = {}): ViewerFormValues => ({
  ...emptyViewerForm(),
  usr: 'cara_2',
  pwd: 'Viewer_2026',
  confPwd: 'Viewer_2026',
  ...over,
});

describe('viewer form rules (spec §5)', () => {
  it('accepts a complete new viewer', () => {
    expect(viewerFormErrors(form({ email: 'c@example.com', mobile: '0049401234' }), 'create')).toEqual({});
  });

  it('requires username and password on create, with the account rules', () => {
    expect(viewerFormErrors(form({ usr: '', pwd: '', confPwd: '' }), 'create')).toEqual({
      usr: 'rules.username.required',
      pwd: 'rules.password.required',
      confPwd: 'rules.confirmPassword.required',
    });
    expect(viewerFormErrors(form({ usr: 'a' }), 'create').usr).toBe('rules.username.length');
    expect(viewerFormErrors(form({ usr: 'bad name!' }), 'create').usr).toBe('rules.username.chars');
    expect(viewerFormErrors(form({ pwd: '123456', confPwd: '123456' }), 'create').pwd).toBe('rules.password.tooSimple');
    expect(viewerFormErrors(form({ pwd: 'abc', confPwd: 'abc' }), 'create').pwd).toBe('rules.password.length');
    expect(viewerFormErrors(form({ confPwd: 'Viewer_2025' }), 'create').confPwd).toBe('rules.confirmPassword.mismatch');
  });

  it('checks e-mail and phone only when filled in', () => {
    expect(viewerFormErrors(form({ email: 'not-an-email' }), 'create').email).toBe('rules.email.format');
    expect(viewerFormErrors(form({ mobile: '12ab' }), 'create').mobile).toBe('rules.phone.digits');
    expect(viewerFormErrors(form({ email: '  ', mobile: '' }), 'create')).toEqual({});
  });

  it('on edit the username is fixed and the password optional, checked when typed', () => {
    expect(viewerFormErrors(form({ usr: '', pwd: '', confPwd: '' }), 'edit')).toEqual({});
    expect(viewerFormErrors(form({ usr: '', pwd: 'New_pass1', confPwd: '' }), 'edit')).toEqual({
      confPwd: 'rules.confirmPassword.required',
    });
    expect(viewerFormErrors(form({ pwd: '12345678', confPwd: '12345678' }), 'edit').pwd).toBe('rules.password.tooSimple');
  });
});

describe('viewer wire parameters (vendor-actions.md §4)', () => {
  it('addPlantBrowser: RC4 password with the session secret, plants as an id list, empty contact left out', () => {
    const p = addViewerParams(form({ usr: ' cara_2 ', pid: [9, 3, 9], desc: ' roof ', enable: false }), SECRET);
    expect(p).toMatchObject({ usr: 'cara_2', pid: '3,9', desc: 'roof', enable: false });
    expect(p).not.toHaveProperty('email');
    expect(p).not.toHaveProperty('mobile');
    expect(rc4DecryptHex(SECRET, p.pwd)).toBe(sha1Hex('Viewer_2026'));
    expect(rc4DecryptHex(SECRET, p.pwdtext!)).toBe('Viewer_2026');
  });

  it('editPlantBrowser: every field (empty clears), the password only when typed', () => {
    const kept = editViewerParams(42, form({ pwd: '', confPwd: '', email: '', pid: [] }), SECRET);
    expect(kept).toEqual({ uid: 42, email: '', mobile: '', desc: '', enable: true, pid: '' });
    const changed = editViewerParams(42, form({ pwd: 'Other_2026', confPwd: 'Other_2026', pid: [5] }), SECRET);
    expect(rc4DecryptHex(SECRET, changed.pwd!)).toBe(sha1Hex('Other_2026'));
    expect(changed.pid).toBe('5');
  });

  it('an edit form starts from the row, password empty', () => {
    const v = viewerFormOf({
      uid: 1,
      usr: 'viewer_cara',
      plant: ['Anna Elbblick Home'],
      pid: [4],
      mobile: '123456',
      email: 'c@x.de',
      desc: 'd',
      enable: false,
      gts: '2026-01-01 00:00:00',
      lastLoginTs: '',
    });
    expect(v).toEqual({ usr: 'viewer_cara', pwd: '', confPwd: '', email: 'c@x.de', mobile: '123456', desc: 'd', enable: false, pid: [4] });
  });

  it('server errors land under their field', () => {
    expect(fieldOfError(24)).toBe('usr');
    expect(fieldOfError(519)).toBe('usr');
    expect(fieldOfError(17)).toBe('pwd');
    expect(fieldOfError(18)).toBe('mobile');
    expect(fieldOfError(26)).toBe('email');
    expect(fieldOfError(260)).toBe('pid');
    expect(fieldOfError(11)).toBeUndefined();
  });
});

describe('viewer list and plant picker', () => {
  it('pages from 0 and searches by username', () => {
    const s = readListState(VIEWER_LIST_SPEC, new URLSearchParams('page=3&size=20&q=%20car%20'));
    expect(viewerListParams(s)).toEqual({ page: 2, pagesize: 20, usr: 'car' });
    expect(viewerListParams(readListState(VIEWER_LIST_SPEC, new URLSearchParams()))).toEqual({ page: 0, pagesize: 10 });
  });

  it('reads every plant page by page', async () => {
    const all = Array.from({ length: 120 }, (_, i) => ({ pid: i + 1, name: `P${i + 1}` }));
    const pages: number[] = [];
    const plants = await fetchAllPlants(async (page, pagesize) => {
      pages.push(page);
      return { total: all.length, plant: all.slice(page * pagesize, (page + 1) * pagesize) };
    });
    expect(pages).toEqual([0, 1, 2]);
    expect(plants).toHaveLength(120);
    expect(plants[119]).toEqual({ pid: 120, name: 'P120' });
  });
});
