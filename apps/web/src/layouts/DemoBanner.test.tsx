import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from '../i18n';
import { getSession, saveLogin } from '../app/session';
import { isDemoSession, markDemoSession } from '../features/entry/experience/demo-session';
import { authDat, resetBrowserState } from '../test/session-fixtures';
import { renderAppAt } from '../test/render-app';

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en_US');
  // the sign-out succeeds; every other call answers "not supported" (no pending request outlives a test)
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) =>
      Promise.resolve(
        new Response(String(url).includes('action=logout') ? '{"err":0,"desc":"ERR_NONE","dat":{}}' : '{"err":9,"desc":"ERR_NOT_SUPPORTED"}'),
      ),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/'); // the sign-up test moved it: other files share this window
  resetBrowserState();
});

describe('demo read-only banner', () => {
  it('marks only the demo session: another token of the same account is no demo', () => {
    markDemoSession('tok-demo', 3600);
    expect(isDemoSession('tok-demo')).toBe(true);
    expect(isDemoSession('tok-other')).toBe(false);
    expect(isDemoSession(undefined)).toBe(false);
    expect(document.cookie).not.toContain('tok-demo'); // the mark is a digest, not the token
  });

  it('shows in the area of a demo session and its sign-up link leaves for the signup face', async () => {
    markDemoSession('tok-demo', 3600);
    saveLogin(authDat({ token: 'tok-demo' }), { remember: false });
    const router = renderAppAt('/generalNew/home');
    // like a browser router: window.location follows the route (the API client's sign-out path reads it)
    router.subscribe((st) => window.history.replaceState(null, '', st.location.pathname + st.location.search));
    const banner = await screen.findByTestId('demo-banner', undefined, { timeout: 8000 });
    expect(banner.textContent).toContain('Demo session: read only');
    expect(banner.textContent).toContain('nothing can be changed or saved');
    fireEvent.click(screen.getByTestId('demo-banner-signup'));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/entry?mode=signup'));
    expect(getSession()).toBeUndefined();
    expect(await screen.findByTestId('entry-mode-signup', undefined, { timeout: 8000 })).toBeTruthy();
  }, 40_000);

  it('is absent for an ordinary session', async () => {
    markDemoSession('tok-demo', 3600);
    saveLogin(authDat({ token: 'tok-1' }), { remember: false });
    renderAppAt('/generalNew/home');
    await screen.findByTestId('header-user', undefined, { timeout: 8000 });
    expect(screen.queryByTestId('demo-banner')).toBeNull();
  }, 40_000);
});
