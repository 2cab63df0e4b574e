import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import PersonalBasicPage from './PersonalBasicPage';

function fakeServer() {
  const actions: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const action = new URL(url, 'http://localhost').searchParams.get('action') ?? '';
      actions.push(action);
      const a =
        action === 'queryAccountInfo'
          ? { err: 0, dat: { usr: 'x', role: 1, qname: '', email: '', mobile: '', gts: '2026-01-01 00:00:00' } }
          : action === 'queryDeviceCtrlPwd'
            ? { err: 0, dat: { domain: 'SW', set: false, uts: '' } }
            : { err: 9 };
      return new Response(JSON.stringify({ desc: a.err ? 'ERR' : 'ERR_NONE', ...a }), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return actions;
}

function renderPage() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter>
        <PersonalBasicPage />
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

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('PersonalBasicPage: the device-control password card', () => {
  it('is shown to a manufacturer', async () => {
    await i18n.changeLanguage('en_US');
    saveLogin(authDat({ role: 1, usr: 'sunmaker' }), { remember: false });
    const actions = fakeServer();
    renderPage();
    expect((await screen.findByTestId('ctrl-pwd-state', {}, { timeout: 40_000 })).textContent).toBe('Not set');
    expect(screen.getByText('Device control password')).toBeTruthy();
    expect(actions).toContain('queryDeviceCtrlPwd');
  }, 60_000);

  it('is neither shown nor asked for to a distributor (or its sub-administrators)', async () => {
    await i18n.changeLanguage('en_US');
    saveLogin(authDat({ role: 2, usr: 'dealer_north' }), { remember: false });
    const actions = fakeServer();
    renderPage();
    expect(await screen.findByText('Account security', { selector: '.ant-card-head-title' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Device control password')).toBeNull();
    expect(actions).not.toContain('queryDeviceCtrlPwd');
  }, 60_000);
});
