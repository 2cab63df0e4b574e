import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ApiCallError } from '@sunwatch/protocol';
import type { AuthDat } from '@sunwatch/protocol';
import i18n from '../../i18n';
import { EntryPage } from './EntryPage';
import type { LoginDeps } from './login-flow';

beforeAll(async () => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  await i18n.changeLanguage('en_US');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{loc.pathname + loc.search}</div>;
}

function fakeDeps(login: () => Promise<AuthDat>, logoutVerifiction?: () => Promise<unknown>) {
  let session: { role: number } | undefined;
  const deps = {
    api: {
      login: vi.fn(login),
      call: vi.fn(async (name: string) => {
        if (name === 'logoutVerifiction') {
          if (logoutVerifiction) return logoutVerifiction();
          throw new ApiCallError(12, 'ERR_NO_RECORD');
        }
        return undefined;
      }),
    },
    getSession: () => session,
    getRememberToken: () => undefined,
    clearSession: vi.fn(() => {
      session = undefined;
    }),
    saveLogin: vi.fn((dat: AuthDat) => {
      session = { role: dat.role };
    }),
    setPermissions: vi.fn(),
    homePathFor: () => '/generalNew/home',
  };
  return deps as typeof deps & LoginDeps<unknown>;
}

function renderEntry(url = '/entry', deps?: LoginDeps<unknown>) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/entry" element={<EntryPage {...(deps ? { loginDeps: deps } : {})} />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

const ok: AuthDat = { secret: 's', token: 't', expire: 604800, role: 0, uid: 1, usr: 'owner_anna', pprAuth: 'p' };

async function fillAndSubmit(usr: string, pwd: string) {
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: usr } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: pwd } });
  fireEvent.click(screen.getByTestId('login-submit'));
  return screen.findByTestId('puzzle-track');
}

function solvePuzzle() {
  const gapX = Number(screen.getByTestId('puzzle-track').getAttribute('data-gap-x'));
  const handle = screen.getByTestId('puzzle-handle');
  fireEvent.pointerDown(handle, { clientX: 0, button: 0, pointerType: 'mouse' });
  for (const x of [4, 19, 47, gapX - 15, gapX + 3, gapX]) fireEvent.pointerMove(window, { clientX: x });
  fireEvent.pointerUp(window, { clientX: gapX });
}

describe('EntryPage', () => {
  it('shows the branded login mode with the language picker and the version', () => {
    renderEntry();
    expect(screen.getAllByText('Sunwatch').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByTestId('language-picker')).toBeTruthy();
    expect(screen.getByTestId('entry-version').textContent).toMatch(/Version \d+\.\d+\.\d+/);
    const remember = screen.getByTestId('login-remember') as HTMLInputElement;
    expect(remember.type).toBe('checkbox');
  });

  it('says why the last session ended (?reason= of the sign-out path), and nothing without one', () => {
    renderEntry('/entry?redirect=%2FgeneralNew%2Fhome&reason=disabled');
    const notice = screen.getByTestId('session-ended');
    expect(notice.getAttribute('data-reason')).toBe('disabled');
    expect(notice.textContent).toContain(i18n.t('session:ended.disabled'));
    cleanup();
    renderEntry('/entry?reason=expired');
    expect(screen.getByTestId('session-ended').textContent).toContain(i18n.t('session:ended.expired'));
    cleanup();
    renderEntry('/entry?reason=bogus');
    expect(screen.queryByTestId('session-ended')).toBeNull();
  });

  it('checks the account on blur', async () => {
    renderEntry();
    const usr = screen.getByTestId('login-username');
    fireEvent.blur(usr);
    expect(await screen.findByText('Please enter the username')).toBeTruthy();
    fireEvent.change(usr, { target: { value: 'a' } });
    fireEvent.blur(usr);
    expect(await screen.findByText('The username must be 2 to 32 characters')).toBeTruthy();
    fireEvent.change(usr, { target: { value: 'x'.repeat(33) } });
    fireEvent.blur(usr);
    expect(await screen.findByText('The username must be 2 to 32 characters')).toBeTruthy();
    fireEvent.change(usr, { target: { value: 'owner_anna' } });
    fireEvent.blur(usr);
    await waitFor(() => expect(screen.queryByText('The username must be 2 to 32 characters')).toBeNull());
  });

  it('checks the trimmed password on blur', async () => {
    renderEntry();
    const pwd = screen.getByTestId('login-password');
    fireEvent.blur(pwd);
    expect(await screen.findByText('Please enter the password')).toBeTruthy();
    fireEvent.change(pwd, { target: { value: '  12345  ' } });
    fireEvent.blur(pwd);
    expect(await screen.findByText('The password must be 6 to 32 characters')).toBeTruthy();
    fireEvent.change(pwd, { target: { value: '  Owner_2026  ' } });
    fireEvent.blur(pwd);
    await waitFor(() => expect(screen.queryByText('The password must be 6 to 32 characters')).toBeNull());
  });

  it('does not open the puzzle while the form is invalid', async () => {
    renderEntry();
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Please enter the username')).toBeTruthy();
    expect(screen.queryByTestId('puzzle-track')).toBeNull();
  });

  it('switches modes without changing the route, and back', async () => {
    renderEntry();
    for (const [link, mode, title] of [
      ['link-signup', 'signup', 'Create an account'],
      ['link-retrieve', 'retrieve', 'Reset your password'],
      ['link-retrieve-user', 'retrieveUser', 'Forgot your account?'],
      ['switch-qr', 'qr', 'Scan to sign in'],
    ] as const) {
      fireEvent.click(screen.getByTestId(link));
      expect(await screen.findByTestId(`entry-mode-${mode}`, {}, { timeout: 15_000 })).toBeTruthy();
      expect(screen.getByRole('heading', { name: title })).toBeTruthy();
      fireEvent.click(screen.getByTestId(mode === 'qr' ? 'switch-password' : 'back-to-login'));
      expect(screen.getByTestId('login-submit')).toBeTruthy();
    }
  }, 30_000);

  it('signs in after the puzzle, trims the password and follows the redirect', async () => {
    const deps = fakeDeps(async () => ok);
    renderEntry('/entry?redirect=%2FgeneralNew%2Fplant', deps);
    fireEvent.click(screen.getByTestId('login-remember'));
    await fillAndSubmit('owner_anna', '  Owner_2026 ');
    solvePuzzle();
    expect(deps.api.login).not.toHaveBeenCalled();
    expect(await screen.findByTestId('where', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/generalNew/plant');
    expect(deps.api.login).toHaveBeenCalledWith('owner_anna', 'Owner_2026', { isRem: true });
    expect(deps.saveLogin).toHaveBeenCalledWith(ok, { remember: true });
  });

  it('goes to the home path without a redirect', async () => {
    const deps = fakeDeps(async () => ok);
    renderEntry('/entry?redirect=%2F%2Fevil.example', deps);
    await fillAndSubmit('owner_anna', 'Owner_2026');
    solvePuzzle();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/generalNew/home'), { timeout: 3000 });
  });

  it("shows the server's message under the form and blocks retry for 1 s", async () => {
    const deps = fakeDeps(() => Promise.reject(new ApiCallError(16, 'ERR_PASSWORD_VERIF_FAIL', 'Wrong password')));
    renderEntry('/entry', deps);
    await fillAndSubmit('owner_anna', 'not-it-123');
    solvePuzzle();
    const alert = await screen.findByTestId('login-error', {}, { timeout: 3000 });
    expect(alert.textContent).toContain('Wrong password');
    expect(alert.getAttribute('data-code')).toBe('16');
    const submit = screen.getByTestId('login-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await waitFor(() => expect(submit.disabled).toBe(false), { timeout: 2000 });
  });

  it('shows the catalogue message for a network failure (code 3)', async () => {
    const deps = fakeDeps(() => Promise.reject(new ApiCallError(3, 'ERR_SYSTEM_EXCEPTION')));
    renderEntry('/entry', deps);
    await fillAndSubmit('owner_anna', 'Owner_2026');
    solvePuzzle();
    const alert = await screen.findByTestId('login-error', {}, { timeout: 3000 });
    expect(alert.textContent).toContain(i18n.t('3', { ns: 'errors' }));
  });

  it('stays on the page when the account is being logged off', async () => {
    const deps = fakeDeps(
      async () => ok,
      () => Promise.resolve(undefined),
    );
    renderEntry('/entry', deps);
    await fillAndSubmit('owner_anna', 'Owner_2026');
    solvePuzzle();
    const alert = await screen.findByTestId('login-error', {}, { timeout: 3000 });
    expect(alert.textContent).toContain(i18n.t('special.accountLoggingOff', { ns: 'errors' }));
    expect(deps.clearSession).toHaveBeenCalled();
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('starts the sign-in exactly 1 s after the puzzle is solved', async () => {
    const deps = fakeDeps(async () => ok);
    renderEntry('/entry', deps);
    await fillAndSubmit('owner_anna', 'Owner_2026');
    vi.useFakeTimers();
    solvePuzzle();
    act(() => {
      vi.advanceTimersByTime(999);
    });
    expect(deps.api.login).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(deps.api.login).toHaveBeenCalledTimes(1);
  });
});
