import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import { DeviceCtrlPwdCard } from './DeviceCtrlPwdCard';

/** A fake server holding the domain's password state. */
function fakeServer() {
  const state = { set: false, uts: '' };
  const sets: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      let a: { err: number; dat?: unknown } = { err: 9 };
      if (q.get('action') === 'queryDeviceCtrlPwd') a = { err: 0, dat: { domain: 'SW', ...state } };
      if (q.get('action') === 'setDeviceCtrlPwd') {
        const pwd = q.get('pwd') ?? '';
        sets.push(pwd);
        Object.assign(state, pwd ? { set: true, uts: '2026-11-25 03:30:00' } : { set: false, uts: '' });
        a = { err: 0 };
      }
      return new Response(JSON.stringify({ desc: a.err ? 'ERR' : 'ERR_NONE', ...a }), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return sets;
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
  saveLogin(authDat({ role: 1, usr: 'sunmaker' }), { remember: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('DeviceCtrlPwdCard', () => {
  it('sets the password typed twice (checked first), shows when it changed, and clears it after a confirmation', async () => {
    const sets = fakeServer();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <Providers queryClient={qc}>
        <MemoryRouter>
          <DeviceCtrlPwdCard />
        </MemoryRouter>
      </Providers>,
    );
    expect((await screen.findByTestId('ctrl-pwd-state', {}, { timeout: 40_000 })).textContent).toBe('Not set');
    expect(screen.getByTestId('ctrl-pwd-domain').textContent).toBe('SW');
    expect(screen.queryByTestId('ctrl-pwd-clear')).toBeNull();

    // too short, then two different passwords: refused in the browser
    fireEvent.change(screen.getByTestId('ctrl-pwd-new'), { target: { value: 'abc' } });
    fireEvent.change(screen.getByTestId('ctrl-pwd-repeat'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByTestId('ctrl-pwd-save'));
    expect(await screen.findByText('6 to 32 characters, no spaces', { selector: '.ant-form-item-explain-error' }, { timeout: 20_000 })).toBeTruthy();
    fireEvent.change(screen.getByTestId('ctrl-pwd-new'), { target: { value: 'Secret_42' } });
    fireEvent.change(screen.getByTestId('ctrl-pwd-repeat'), { target: { value: 'Secret_43' } });
    fireEvent.click(screen.getByTestId('ctrl-pwd-save'));
    expect(await screen.findByText('The two passwords differ', {}, { timeout: 20_000 })).toBeTruthy();
    expect(sets).toEqual([]);

    fireEvent.change(screen.getByTestId('ctrl-pwd-repeat'), { target: { value: 'Secret_42' } });
    fireEvent.click(screen.getByTestId('ctrl-pwd-save'));
    await waitFor(() => expect(sets).toEqual(['Secret_42']), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('ctrl-pwd-state').textContent).toBe('Set'), { timeout: 10_000 });
    expect(screen.getByTestId('ctrl-pwd-uts').textContent).toBe('2026-11-25 03:30:00');
    expect(screen.getByTestId('ctrl-pwd-save').textContent).toBe('Change password');

    fireEvent.click(screen.getByTestId('ctrl-pwd-clear'));
    expect((await screen.findAllByText('Remove the device control password?', {}, { timeout: 20_000 })).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('ctrl-pwd-clear-ok'));
    await waitFor(() => expect(sets).toEqual(['Secret_42', '']), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('ctrl-pwd-state').textContent).toBe('Not set'), { timeout: 10_000 });
  }, 60_000);
});
