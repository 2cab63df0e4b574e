import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { allPermissionNames, permissionLists, permissionEntries, type AccountListRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin, setPermissions } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import AccountsAdminPage from './AccountsAdminPage';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const owner: AccountListRow = {
  uid: 21,
  usr: 'owner_anna',
  qname: 'Anna',
  role: 0,
  rid: 0,
  roleName: '',
  desc: '',
  enable: true,
  mobile: '',
  email: '',
  gts: '2026-11-01 10:00:00',
  groupId: 0,
  group: '',
  collectors: 1,
  devices: 2,
  plants: 1,
  lastLoginTs: '2026-11-20 08:00:00',
  parentUid: 3,
  parentUsr: 'dealer_north',
  dist: '',
  vendor: 'SW',
  addCollector: true,
  subAdmin: false,
};

type Answer = { err: number; desc?: string; msg?: string; dat?: unknown };
let answers: Record<string, (q: URLSearchParams) => Answer>;
let calls: URLSearchParams[];

function stubFetch() {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URLSearchParams(String(url).split('?')[1]);
      calls.push(q);
      const action = q.get('action') ?? '';
      const a = answers[action]?.(q) ?? { err: 9, desc: 'ERR_NOT_SUPPORTED' };
      return new Response(JSON.stringify({ desc: 'ERR_NONE', ...a }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

function renderPage(path = '/adminNew/account') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="*" element={<AccountsAdminPage />} />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
}

/** The dialog's OK button (the toolbar's button has the same text). */
function okButton(): HTMLElement {
  const buttons = screen.getAllByRole('button', { name: /Create account/ });
  return buttons[buttons.length - 1]!;
}

function signIn(role: 0 | 1 | 2 | 3 | 15, granted?: string[]) {
  saveLogin(authDat({ role, usr: 'dealer_north', uid: 3, secret: 'sec-1' }), { remember: false });
  if (granted) setPermissions(permissionLists(permissionEntries(new Set(granted))));
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
  answers = {
    webQueryUsrEs: () => ({ err: 0, dat: { total: 1, page: 0, pagesize: 10, account: [owner] } }),
    queryUsrGroups: () => ({ err: 0, dat: { total: 0, page: 0, pagesize: 50, group: [] } }),
    queryRoles: () => ({ err: 0, dat: { total: 0, page: 0, pagesize: 50, role: [] } }),
  };
  stubFetch();
});
afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

describe('account management page', () => {
  it('shows a full distributor every tab, the create and distribute buttons and the row actions', async () => {
    signIn(2, allPermissionNames());
    renderPage();
    expect(await screen.findByText('owner_anna', {}, { timeout: 10_000 })).toBeTruthy();
    for (const tab of ['Users', 'Groups', 'Roles and permissions', 'Device control permissions'])
      expect(screen.getByRole('tab', { name: tab })).toBeTruthy();
    expect(screen.getByTestId('create-account')).toBeTruthy();
    expect(screen.getByTestId('distribute-open')).toBeTruthy();
    expect(screen.getByTestId('row-actions-owner_anna')).toBeTruthy();
    expect((screen.getByTestId('enable-owner_anna') as HTMLButtonElement).disabled).toBe(false);
    // the list asks the server for the first page, sorted by username
    const list = calls.find((q) => q.get('action') === 'webQueryUsrEs')!;
    expect(list.get('page')).toBe('0');
    expect(list.get('pagesize')).toBe('10');
  });

  it('hides what a sub-administrator without the account buttons may not do', async () => {
    signIn(2, ['account_manag', 'account_list']);
    renderPage();
    expect(await screen.findByText('owner_anna', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('create-account')).toBeNull();
    expect(screen.queryByTestId('distribute-open')).toBeNull();
    expect(screen.queryByTestId('row-actions-owner_anna')).toBeNull();
    expect((screen.getByTestId('enable-owner_anna') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('tab', { name: 'Groups' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Roles and permissions' })).toBeNull();
  });

  it('sends the ungrouped filter as an empty groupid', async () => {
    signIn(1);
    renderPage('/adminNew/account?group=none&enabled=disabled');
    await screen.findByText('owner_anna', {}, { timeout: 10_000 });
    const list = calls.find((q) => q.get('action') === 'webQueryUsrEs')!;
    expect(list.has('groupid')).toBe(true);
    expect(list.get('groupid')).toBe('');
    expect(list.get('enable')).toBe('false');
  });

  it('checks the create form before sending and shows the server refusal under the form', async () => {
    signIn(2, allPermissionNames());
    answers.addPlantOwner = () => ({ err: 519, desc: 'ERR_USR_EXIST', msg: 'The username already exists' });
    renderPage();
    await screen.findByText('owner_anna', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('create-account'));
    const dialog = await screen.findByTestId('create-account-dialog', {}, { timeout: 15_000 });
    fireEvent.click(okButton());
    expect(await within(dialog).findByText('Please enter the username', {}, { timeout: 10_000 })).toBeTruthy();
    expect(calls.some((q) => q.get('action') === 'addPlantOwner')).toBe(false);

    fireEvent.change(screen.getByTestId('create-usr'), { target: { value: 'owner_anna' } });
    fireEvent.change(screen.getByTestId('create-pwd'), { target: { value: 'Good_pass1' } });
    fireEvent.change(screen.getByTestId('create-confpwd'), { target: { value: 'Good_pass2' } });
    fireEvent.click(okButton());
    expect(await within(dialog).findByText('The two passwords do not match', {}, { timeout: 10_000 })).toBeTruthy();

    fireEvent.change(screen.getByTestId('create-confpwd'), { target: { value: 'Good_pass1' } });
    fireEvent.click(okButton());
    await waitFor(
      () => expect(screen.getByTestId('create-error').textContent).toContain('The username already exists'),
      { timeout: 10_000 },
    );
    const sent = calls.find((q) => q.get('action') === 'addPlantOwner')!;
    expect(sent.get('usr')).toBe('owner_anna');
    expect(sent.get('pwd')).toMatch(/^[0-9a-f]{80}$/);
    expect(sent.has('pwdtext')).toBe(true);
  }, 150_000);
});
