import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import i18n from '../i18n';
import { saveLogin, setPermissions } from '../app/session';
import { authDat, resetBrowserState } from '../test/session-fixtures';
import { renderAppAt } from '../test/render-app';

const renderAt = (path: string) => renderAppAt(path);

beforeEach(async () => {
  resetBrowserState();
  await i18n.changeLanguage('en_US');
});
afterEach(() => cleanup());

describe('AreaLayout', () => {
  it('shows a role-2 sub-administrator only the modules it holds', async () => {
    saveLogin(authDat({ role: 2, usr: 'north_ops' }), { remember: false });
    setPermissions({ modules: ['device_manag', 'alarm_manag'], firstPages: [], secondPages: [], buttons: [] });
    renderAt('/adminNew/alarm');
    const menu = await screen.findByRole('menu', undefined, { timeout: 8000 });
    expect(within(menu).getByText('Devices')).toBeTruthy();
    expect(within(menu).getByText('Alarms')).toBeTruthy();
    expect(within(menu).getByText('Plants')).toBeTruthy();
    expect(within(menu).getByText('Personal info')).toBeTruthy();
    expect(within(menu).queryByText('Accounts')).toBeNull();
    expect(within(menu).queryByText('Overview')).toBeNull();
    expect(within(menu).queryByText('Settings')).toBeNull();
    expect(screen.getByTestId('header-user').textContent).toBe('north_ops');
    // the alarm page itself (issue 11) renders inside the layout
    expect(await screen.findByRole('tab', { name: /Current alarms/ }, { timeout: 8000 })).toBeTruthy();
    expect(screen.queryByText('This page could not be displayed')).toBeNull();
    expect(screen.queryByTestId('read-only-notice')).toBeNull();
  });

  it('re-renders the menu when the session watch stores new permission lists (role edit)', async () => {
    saveLogin(authDat({ role: 2, usr: 'north_ops' }), { remember: false });
    setPermissions({ modules: ['device_manag', 'alarm_manag'], firstPages: [], secondPages: [], buttons: [] });
    renderAt('/adminNew/alarm');
    const menu = await screen.findByRole('menu', undefined, { timeout: 8000 });
    expect(within(menu).queryByText('Accounts')).toBeNull();
    act(() => setPermissions({ modules: ['alarm_manag', 'account_manag'], firstPages: [], secondPages: [], buttons: [] }));
    await waitFor(() => expect(within(screen.getByRole('menu')).getByText('Accounts')).toBeTruthy());
    expect(within(screen.getByRole('menu')).queryByText('Devices')).toBeNull();
  });

  it("shows a viewer only what she can use and says the view is read-only", async () => {
    saveLogin(authDat({ role: 5, usr: 'viewer_cara' }), { remember: false });
    // the settings node opens her first settings page (the default, datalogger management, is not hers)
    const router = renderAt('/generalNew/setting');
    const notice = await screen.findByTestId('read-only-notice', undefined, { timeout: 8000 });
    expect(notice.textContent).toContain('Read-only access');
    expect(notice.textContent).toContain('You can view the plants shared with you');
    expect(router.state.location.pathname).toBe('/generalNew/setting/alarmform');
    // the settings layout (and its menu) loads lazily after the area layout
    await screen.findAllByText('Alarm email settings', undefined, { timeout: 8000 });
    const menus = screen.getAllByRole('menu');
    const all = menus.map((m) => m.textContent ?? '').join('|');
    for (const open of ['My devices', 'Alarms', 'Device list', 'Plants', 'Personal info', 'Settings', 'Alarm email settings', 'Report export']) {
      expect(all, open).toContain(open);
    }
    for (const never of ['Sub-accounts', 'Data plan recharge', 'Recharge records', 'Acceleration records', 'Dataloggers', 'Rate settings', 'Default firmware']) {
      expect(all, never).not.toContain(never);
    }
  });

  it('shows an owner the settings a viewer does not get, without the read-only notice', async () => {
    saveLogin(authDat({ role: 0, usr: 'owner_anna' }), { remember: false });
    const router = renderAt('/generalNew/setting');
    expect(await screen.findByText('Sub-accounts', undefined, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText('Data plan recharge')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/generalNew/setting/datalogger');
    expect(screen.queryByTestId('read-only-notice')).toBeNull();
  });

  it('renders the operator settings layout with its menu groups', async () => {
    saveLogin(authDat({ role: 15, usr: 'operator' }), { remember: false });
    renderAt('/adminNewStatr/home/KEYList');
    expect(await screen.findByText('API interface', undefined, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText('Manufacturer management')).toBeTruthy();
    expect(screen.getAllByText('API keys').length).toBeGreaterThan(0);
  });

  it('sends another role to /401 and an unknown path to /404', async () => {
    saveLogin(authDat({ role: 0 }), { remember: false });
    const router = renderAt('/adminNew/home');
    expect(await screen.findByText('401', undefined, { timeout: 8000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/401');
    cleanup();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const r2 = renderAt('/no/such/page');
    expect(await screen.findByText('404', undefined, { timeout: 8000 })).toBeTruthy();
    expect(r2.state.location.pathname).toBe('/404');
    expect(err).toHaveBeenCalledWith('404 page not found', '/no/such/page');
    err.mockRestore();
  });
});
