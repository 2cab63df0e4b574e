import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { rc4DecryptHex, sha1Hex } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import type { ViewerRow } from '../api/queries';
import BrowseAccountPage from './BrowseAccountPage';

const SECRET = 'sec-viewers-0123456789';

const cara: ViewerRow = {
  uid: 9,
  usr: 'viewer_cara',
  plant: ['Anna Elbblick Home'],
  pid: [4],
  mobile: '',
  email: 'cara@example.com',
  desc: 'Family',
  enable: true,
  gts: '2026-11-01 08:00:00',
  lastLoginTs: '',
};

/** A fake action endpoint: answers by action, records every call's parameters. */
function fakeServer(answers: Record<string, (q: URLSearchParams) => { err: number; dat?: unknown; msg?: string }>) {
  const calls: Array<{ action: string; q: URLSearchParams }> = [];
  const fetchMock = vi.fn(async (url: string) => {
    const q = new URL(url, 'http://localhost').searchParams;
    const action = q.get('action') ?? '';
    calls.push({ action, q });
    const answer = answers[action]?.(q) ?? { err: 9 };
    return new Response(JSON.stringify({ desc: answer.err ? 'ERR' : 'ERR_NONE', ...answer }), {
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, of: (action: string) => calls.filter((c) => c.action === action) };
}

const listOf = (rows: ViewerRow[]) => () => ({ err: 0, dat: { total: rows.length, page: 0, pagesize: 10, browser: rows } });
const plants = () => ({
  err: 0,
  dat: {
    total: 2,
    page: 0,
    pagesize: 50,
    plant: [
      { pid: 4, name: 'Anna Elbblick Home' },
      { pid: 5, name: 'Anna Garden Shed' },
    ],
  },
});

function renderPage() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter initialEntries={['/generalNew/setting/browseAccount']}>
        <BrowseAccountPage />
      </MemoryRouter>
    </Providers>,
  );
}

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
  saveLogin(authDat({ secret: SECRET }), { remember: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

const fill = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('BrowseAccountPage', () => {
  it('lists the viewers with their plants, contact and state', async () => {
    const server = fakeServer({ queryPlantBrowsers: listOf([cara]) });
    renderPage();
    expect(await screen.findByText('viewer_cara')).toBeTruthy();
    expect(screen.getByTestId('viewer-row-plants').textContent).toBe('Anna Elbblick Home');
    expect(screen.getByTestId('viewer-row-enable').textContent).toBe('Enabled');
    expect(server.of('queryPlantBrowsers')[0]!.q.get('page')).toBe('0');
  }, 60_000);

  it('checks the form, sends the RC4 password and shows a taken username under its field', async () => {
    let taken = true;
    const server = fakeServer({
      queryPlantBrowsers: listOf([]),
      webQueryPlants: plants,
      addPlantBrowser: () => (taken ? { err: 24, msg: 'The username already exists' } : { err: 0, dat: { uid: 10 } }),
    });
    renderPage();
    await screen.findByText('No sub-accounts yet');
    fireEvent.click(screen.getByTestId('viewer-add'));
    const modal = await screen.findByTestId('viewer-form', {}, { timeout: 10_000 });
    // typing a password does not yet complain about the untouched confirmation
    fill('viewer-pwd', 'Viewer_2026');
    fireEvent.blur(screen.getByTestId('viewer-pwd'));
    await waitFor(() => expect(screen.getByTestId('password-strength').dataset.strength).toBe('strong'));
    expect(within(modal).queryByText('Please confirm the password')).toBeNull();
    fill('viewer-pwd', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText('Please enter the username', {}, { timeout: 10_000 })).toBeTruthy();
    expect(within(modal).getByText('Please confirm the password')).toBeTruthy();
    expect(server.of('addPlantBrowser')).toHaveLength(0);

    fill('viewer-usr', 'cara_two');
    fill('viewer-pwd', 'Viewer_2026');
    fill('viewer-confpwd', 'Viewer_2026');
    fill('viewer-email', 'two@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.of('addPlantBrowser')).toHaveLength(1), { timeout: 10_000 });
    expect(await within(modal).findByText('The username already exists', {}, { timeout: 10_000 })).toBeTruthy();
    const sent = server.of('addPlantBrowser')[0]!.q;
    expect(sent.get('usr')).toBe('cara_two');
    expect(rc4DecryptHex(SECRET, sent.get('pwd')!)).toBe(sha1Hex('Viewer_2026'));
    expect(rc4DecryptHex(SECRET, sent.get('pwdtext')!)).toBe('Viewer_2026');
    expect(sent.get('email')).toBe('two@example.com');
    expect(sent.get('enable')).toBe('true');

    taken = false;
    fill('viewer-usr', 'cara_three');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.of('addPlantBrowser')).toHaveLength(2));
    expect(server.of('addPlantBrowser')[1]!.q.get('usr')).toBe('cara_three');
    // the list is read again after the write
    await waitFor(() => expect(server.of('queryPlantBrowsers').length).toBeGreaterThan(1));
  }, 60_000);

  it('edits without a password unless one is typed, and deletes after a confirmation', async () => {
    const server = fakeServer({
      queryPlantBrowsers: listOf([cara]),
      webQueryPlants: plants,
      editPlantBrowser: () => ({ err: 0 }),
      delPlantBrowser: () => ({ err: 0 }),
    });
    renderPage();
    await screen.findByText('viewer_cara');
    fireEvent.click(screen.getByTestId('viewer-edit'));
    await screen.findByTestId('viewer-form', {}, { timeout: 10_000 });
    await waitFor(() => expect((screen.getByTestId('viewer-email') as HTMLInputElement).value).toBe('cara@example.com'));
    expect((screen.getByTestId('viewer-usr') as HTMLInputElement).disabled).toBe(true);
    fill('viewer-desc', 'Grandparents');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.of('editPlantBrowser')).toHaveLength(1));
    const edit = server.of('editPlantBrowser')[0]!.q;
    expect(edit.get('uid')).toBe('9');
    expect(edit.get('desc')).toBe('Grandparents');
    expect(edit.get('pid')).toBe('4');
    expect(edit.has('pwd')).toBe(false);

    fireEvent.click(screen.getByTestId('viewer-delete'));
    expect(await screen.findByText('Delete sub-account viewer_cara?', {}, { timeout: 10_000 })).toBeTruthy();
    expect(server.of('delPlantBrowser')).toHaveLength(0);
    fireEvent.click(await screen.findByTestId('viewer-delete-confirm'));
    await waitFor(() => expect(server.of('delPlantBrowser')).toHaveLength(1));
    expect(server.of('delPlantBrowser')[0]!.q.get('uid')).toBe('9');
  }, 60_000);
});
