import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import i18n from '../i18n';
import { saveLogin } from '../app/session';
import { PHONE_QUERY } from '../components/responsive';
import { authDat, resetBrowserState } from '../test/session-fixtures';
import { renderAppAt } from '../test/render-app';
import { stubViewport as viewport } from '../test/viewport';

const renderAt = (path: string) => renderAppAt(path);

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en_US');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('shell on a phone', () => {
  it('the phone query is the one below antd md', () => {
    expect(PHONE_QUERY).toBe('(max-width: 767px)');
  });

  it('has no sider; the menu button opens the area menu in a drawer that navigates', async () => {
    viewport(390);
    saveLogin(authDat({ role: 0, usr: 'owner_anna' }), { remember: false });
    const router = renderAt('/generalNew/alarm');
    const button = await screen.findByTestId('area-menu-button', undefined, { timeout: 8000 });
    expect(screen.queryByTestId('area-sider')).toBeNull();
    expect(screen.queryByTestId('area-menu')).toBeNull();
    fireEvent.click(button);
    const menu = await screen.findByTestId('area-menu', undefined, { timeout: 8000 });
    fireEvent.click(within(menu).getByText('Plants'));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/generalNew/project'));
  });

  it('folds the header controls into one account menu with language and log out', async () => {
    viewport(360);
    saveLogin(authDat({ role: 0, usr: 'owner_anna' }), { remember: false });
    renderAt('/generalNew/alarm');
    const button = await screen.findByTestId('header-menu-button', undefined, { timeout: 8000 });
    expect(screen.queryByTestId('header-language')).toBeNull();
    expect(screen.queryByText('Log out')).toBeNull();
    fireEvent.click(button);
    const menu = await screen.findByTestId('header-menu', undefined, { timeout: 8000 });
    expect(within(menu).getByTestId('header-language')).toBeTruthy();
    expect(within(menu).getByTestId('header-user').textContent).toBe('owner_anna');
    expect(within(menu).getByText('Log out')).toBeTruthy();
    expect(within(menu).getByText('Switch to classic edition')).toBeTruthy();
  });

  it('keeps the desktop sider and header row from 768 px', async () => {
    viewport(768);
    saveLogin(authDat({ role: 0, usr: 'owner_anna' }), { remember: false });
    renderAt('/generalNew/alarm');
    expect(await screen.findByTestId('area-sider', undefined, { timeout: 8000 })).toBeTruthy();
    expect(screen.queryByTestId('area-menu-button')).toBeNull();
    expect(screen.queryByTestId('header-menu-button')).toBeNull();
    expect(screen.getByTestId('header-language')).toBeTruthy();
    await act(async () => {});
  });

  it('puts a settings layout menu into a drawer opened from a button naming the page', async () => {
    viewport(390);
    saveLogin(authDat({ role: 0, usr: 'owner_anna' }), { remember: false });
    const router = renderAt('/generalNew/setting/rate');
    const button = await screen.findByTestId('settings-menu-button', undefined, { timeout: 8000 });
    expect(button.textContent).toContain('Rate settings');
    fireEvent.click(button);
    const menu = await screen.findByTestId('settings-menu', undefined, { timeout: 8000 });
    fireEvent.click(within(menu).getByText('Report export'));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/generalNew/setting/reportexport'));
  });
});
