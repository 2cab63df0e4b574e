import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ROLE, type CustomDomainRow, type VendorCtrlPasswordRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import DomainsPage from './DomainsPage';
import PasswordMaintenancePage from './PasswordMaintenancePage';

/** Issue 14: the operator's custom domains and passwordMaintenance pages. */

function domain(over: Partial<CustomDomainRow> = {}): CustomDomainRow {
  return {
    id: 4,
    host: 'aurora.example',
    vendorId: 9,
    vendorName: 'Aurora Solar GmbH',
    vendorCode: 'AU',
    title: 'Aurora Solar',
    languages: ['zh_CN', 'en_US'],
    forceLanguage: '',
    demo: true,
    qrLogin: false,
    logo: { type: 'image/png', size: 10, url: '/branding/aurora.example/logo.png?v=0123456789ab' },
    background: null,
    phoneNum: '',
    email: 'help@aurora.example',
    wechat: '',
    englishName: '',
    enabled: true,
    seeded: false,
    createdAt: Date.UTC(2026, 5, 1),
    updatedAt: Date.UTC(2026, 5, 2),
    updatedBy: 'operator',
    ...over,
  };
}

function vendor(over: Partial<VendorCtrlPasswordRow> = {}): VendorCtrlPasswordRow {
  return {
    vendorId: 9,
    usr: 'sunmaker',
    vendorCode: 'SW',
    name: 'Sun Maker',
    domains: ['aurora.example'],
    set: false,
    setAt: 0,
    setBy: '',
    ...over,
  };
}

/** Dialogs and tables of antd render slowly in jsdom on a loaded machine. */
const SLOW = 60_000;

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('DomainsPage', () => {
  it(
    'lists the domains paged on the server; search goes to the server; disable asks first',
    async () => {
      const api = installFakeApi({
        queryCustomDomainList: (q) =>
          paged(
            'domains',
            [domain(), domain({ id: 2, host: 'seeded.example', seeded: true, vendorId: 0, logo: null })],
            {
              total: q.get('search') ? 1 : 2,
            },
          ),
        setCustomDomainEnabled: ok(),
      });
      renderWithApp(<DomainsPage />, { role: ROLE.OPERATOR });
      const rows = await screen.findAllByTestId('domain-row');
      expect(rows).toHaveLength(2);
      expect(within(rows[0]!).getByText('aurora.example')).toBeTruthy();
      expect(within(rows[0]!).getByAltText('Logo').getAttribute('src')).toBe(
        '/branding/aurora.example/logo.png?v=0123456789ab',
      );
      expect(within(rows[1]!).getByText('From the branding file')).toBeTruthy();
      expect(within(rows[1]!).getByText('No manufacturer')).toBeTruthy();
      expect(api.last('queryCustomDomainList')?.get('pagesize')).toBe('10');

      fireEvent.change(screen.getByPlaceholderText('Host, product name, contact or manufacturer'), {
        target: { value: 'aurora' },
      });
      fireEvent.keyDown(screen.getByPlaceholderText('Host, product name, contact or manufacturer'), {
        key: 'Enter',
        code: 'Enter',
        keyCode: 13,
      });
      await waitFor(() => expect(api.last('queryCustomDomainList')?.get('search')).toBe('aurora'));

      fireEvent.click(within(rows[0]!).getByTestId('domain-enabled'));
      fireEvent.click(await screen.findByTestId('domain-disable-ok'));
      await waitFor(() => expect(api.count('setCustomDomainEnabled')).toBe(1));
      expect(api.last('setCustomDomainEnabled')?.get('enabled')).toBe('0');
      expect(api.last('setCustomDomainEnabled')?.get('id')).toBe('4');
    },
    SLOW,
  );

  it(
    'edit: the dialog shows the current logo, checks the forced language, saves the fields; delete asks first',
    async () => {
      const api = installFakeApi({
        queryCustomDomainList: paged('domains', [domain()]),
        queryVendorCtrlPwdList: paged('vendors', [vendor()]),
        editCustomDomain: ok(),
        delCustomDomain: ok(),
      });
      renderWithApp(<DomainsPage />, { role: ROLE.OPERATOR });
      const [row] = await screen.findAllByTestId('domain-row');
      fireEvent.click(within(row!).getByTestId('domain-edit'));
      const dialog = await screen.findByTestId('domain-form');
      expect(screen.getByTestId('domain-preview-logo').getAttribute('src')).toContain(
        '/branding/aurora.example/logo.png',
      );

      // a picture of another type is refused before it is sent
      const gif = new File(['GIF89a'], 'logo.gif', { type: 'image/gif' });
      fireEvent.change(screen.getByTestId('domain-file-logo'), { target: { files: [gif] } });
      expect(await screen.findByText('Only PNG, JPG, WebP or SVG pictures')).toBeTruthy();

      fireEvent.change(within(dialog).getByTestId('domain-field-title'), { target: { value: 'Aurora Energy' } });
      fireEvent.click(screen.getByTestId('domain-form-ok'));
      await waitFor(() => expect(api.count('editCustomDomain')).toBe(1));
      const p = api.last('editCustomDomain')!;
      expect([
        p.get('id'),
        p.get('host'),
        p.get('vendor'),
        p.get('title'),
        p.get('languages'),
        p.get('qrLogin'),
      ]).toEqual(['4', 'aurora.example', '9', 'Aurora Energy', 'zh_CN,en_US', '0']);
      await waitFor(() => expect(screen.queryByTestId('domain-form')).toBeNull());

      fireEvent.click(within(row!).getByTestId('domain-delete'));
      fireEvent.click(await screen.findByTestId('domain-delete-ok'));
      await waitFor(() => expect(api.last('delCustomDomain')?.get('id')).toBe('4'));
    },
    SLOW,
  );

  it(
    'a picked picture shows as a preview',
    async () => {
      const created = vi.fn(() => 'blob:preview');
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
      installFakeApi({
        queryCustomDomainList: paged('domains', []),
        queryVendorCtrlPwdList: paged('vendors', [vendor()]),
      });
      renderWithApp(<DomainsPage />, { role: ROLE.OPERATOR });
      fireEvent.click(await screen.findByTestId('domain-add'));
      await screen.findByTestId('domain-form');
      const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'bg.png', { type: 'image/png' });
      fireEvent.change(screen.getByTestId('domain-file-background'), { target: { files: [png] } });
      expect((await screen.findByTestId('domain-preview-background')).getAttribute('src')).toBe('blob:preview');
      // the form refuses to save without host and manufacturer
      fireEvent.click(screen.getByTestId('domain-form-ok'));
      expect(await screen.findByText('Please enter the host name', {}, { timeout: 5000 })).toBeTruthy();
      expect(await screen.findByText('Please choose the manufacturer', {}, { timeout: 5000 })).toBeTruthy();
    },
    SLOW,
  );
});

describe('PasswordMaintenancePage', () => {
  it(
    'lists manufacturers with their domains and state; a password is entered twice; clear asks first',
    async () => {
      const api = installFakeApi({
        queryVendorCtrlPwdList: paged('vendors', [
          vendor(),
          vendor({
            vendorId: 12,
            usr: 'voltmax',
            name: '',
            domains: [],
            set: true,
            setAt: Date.UTC(2026, 5, 3),
            setBy: 'operator',
          }),
        ]),
        setVendorCtrlPwd: ok(),
        clearVendorCtrlPwd: ok(),
      });
      renderWithApp(<PasswordMaintenancePage />, { role: ROLE.OPERATOR });
      const rows = await screen.findAllByTestId('pwd-row');
      expect(within(rows[0]!).getByText('aurora.example')).toBeTruthy();
      expect(within(rows[0]!).getByTestId('pwd-state').textContent).toContain('Not set');
      expect(within(rows[1]!).getByTestId('pwd-state').textContent).toContain('Set');
      expect(within(rows[1]!).getByText(/By operator/)).toBeTruthy();

      fireEvent.click(within(rows[0]!).getByTestId('pwd-set'));
      await screen.findByTestId('pwd-form');
      fireEvent.change(screen.getByTestId('pwd-field-pwd'), { target: { value: 'Secret_42' } });
      fireEvent.change(screen.getByTestId('pwd-field-confirm'), { target: { value: 'Secret_43' } });
      fireEvent.click(screen.getByTestId('pwd-form-ok'));
      expect(await screen.findByText('The two passwords do not match')).toBeTruthy();
      expect(api.count('setVendorCtrlPwd')).toBe(0);
      fireEvent.change(screen.getByTestId('pwd-field-pwd'), { target: { value: 'abc' } });
      fireEvent.change(screen.getByTestId('pwd-field-confirm'), { target: { value: 'abc' } });
      fireEvent.click(screen.getByTestId('pwd-form-ok'));
      await waitFor(() => expect(screen.getAllByText('6–32 characters, no spaces').length).toBeGreaterThan(1));
      expect(api.count('setVendorCtrlPwd')).toBe(0);

      fireEvent.change(screen.getByTestId('pwd-field-pwd'), { target: { value: 'Secret_42' } });
      fireEvent.change(screen.getByTestId('pwd-field-confirm'), { target: { value: 'Secret_42' } });
      fireEvent.click(screen.getByTestId('pwd-form-ok'));
      await waitFor(() => expect(api.count('setVendorCtrlPwd')).toBe(1));
      const p = api.last('setVendorCtrlPwd')!;
      expect([p.get('vendor'), p.get('pwd'), p.get('confirmPwd')]).toEqual(['9', 'Secret_42', 'Secret_42']);

      fireEvent.click(within(rows[1]!).getByTestId('pwd-clear'));
      fireEvent.click(await screen.findByTestId('pwd-clear-ok'));
      await waitFor(() => expect(api.last('clearVendorCtrlPwd')?.get('vendor')).toBe('12'));
    },
    SLOW,
  );
});
