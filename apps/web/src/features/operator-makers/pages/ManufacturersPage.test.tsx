import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { rc4DecryptHex, sha1Hex, type ManufacturerRow } from '@sunwatch/protocol';
import { installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import ManufacturersPage from './ManufacturersPage';

const ROW: ManufacturerRow = {
  uid: 2,
  usr: 'sunmaker',
  name: 'Sun Maker Ltd',
  code: 'SW',
  enabled: true,
  devcodes: [2341],
  ecoin: 40,
  dataloggers: 12,
  outsideDataloggers: 3,
  rules: 1,
  createdAt: 0,
};

/** The machine may be busy (CI, parallel runs): waits end as soon as their condition holds. */
const SLOW = { timeout: 15_000 };

afterEach(resetAppTest);

describe('factoryAccount page', { timeout: 90_000 }, () => {
  it('lists the manufacturers paged on the server, with the devcode flag; search goes to the server', async () => {
    const api = installFakeApi({ queryManufacturers: paged('manufacturers', [ROW]) });
    renderWithApp(<ManufacturersPage />, { role: 15, path: '/adminNewStatr/home/factoryAccount?status=enabled' });
    const row = await screen.findByText('Sun Maker Ltd', undefined, SLOW);
    const tr = row.closest('tr')!;
    expect(within(tr).getByText('SW')).toBeTruthy();
    expect(within(tr).getByText('2341')).toBeTruthy();
    expect(within(tr).getByTestId('maker-outside').textContent).toContain('3');
    expect(within(tr).getByTestId('maker-ecoin').textContent).toBe('40');
    expect(api.last('queryManufacturers')?.get('enabled')).toBe('true');
    fireEvent.change(screen.getByPlaceholderText('Account, name or code'), { target: { value: 'sun' } });
    fireEvent.keyDown(screen.getByPlaceholderText('Account, name or code'), { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(api.last('queryManufacturers')?.get('search')).toBe('sun'), SLOW);
    expect(api.last('queryManufacturers')?.get('page')).toBe('0');
  });

  it('creates a manufacturer: the password sealed with the session secret, the code and devcodes sent', async () => {
    const api = installFakeApi({ queryManufacturers: paged('manufacturers', []), addManufacturer: ok({ uid: 9 }) });
    renderWithApp(<ManufacturersPage />, { role: 15 });
    fireEvent.click(await screen.findByTestId('maker-add', undefined, SLOW));
    const form = await screen.findByTestId('maker-form', undefined, SLOW);
    fireEvent.click(screen.getByTestId('maker-form-ok'));
    await within(form).findByText('Please enter the manufacturer code', undefined, SLOW);
    expect(api.count('addManufacturer')).toBe(0);
    fireEvent.change(screen.getByTestId('maker-field-usr'), { target: { value: 'new_maker' } });
    fireEvent.change(screen.getByTestId('maker-field-pwd'), { target: { value: 'Good_pass1' } });
    fireEvent.change(screen.getByTestId('maker-field-confpwd'), { target: { value: 'Good_pass1' } });
    fireEvent.change(screen.getByTestId('maker-field-name'), { target: { value: 'New Maker' } });
    fireEvent.change(screen.getByTestId('maker-field-code'), { target: { value: 'nm' } });
    fireEvent.click(screen.getByTestId('maker-form-ok'));
    await waitFor(() => expect(api.count('addManufacturer')).toBe(1), SLOW);
    const p = api.last('addManufacturer')!;
    expect(p.get('usr')).toBe('new_maker');
    expect(p.get('code')).toBe('nm');
    expect(p.get('name')).toBe('New Maker');
    expect(rc4DecryptHex('sec-1', p.get('pwd')!)).toBe(sha1Hex('Good_pass1'));
    expect(rc4DecryptHex('sec-1', p.get('pwdtext')!)).toBe('Good_pass1');
  });

  it('adjusts the ecoin with a reason and refuses a change below 0 before sending', async () => {
    const api = installFakeApi({
      queryManufacturers: paged('manufacturers', [ROW]),
      queryManufacturerEcoinLog: paged('rows', []),
      adjustManufacturerEcoin: ok({ ecoin: 30 }),
    });
    renderWithApp(<ManufacturersPage />, { role: 15 });
    fireEvent.click(await screen.findByTestId('maker-ecoin-adjust', undefined, SLOW));
    await screen.findByTestId('ecoin-form', undefined, SLOW);
    fireEvent.change(screen.getByTestId('ecoin-field-delta'), { target: { value: '-50' } });
    fireEvent.change(screen.getByTestId('ecoin-field-reason'), { target: { value: 'correction' } });
    fireEvent.click(screen.getByTestId('ecoin-form-ok'));
    await screen.findByText('The balance cannot go below 0', undefined, SLOW);
    expect(api.count('adjustManufacturerEcoin')).toBe(0);
    fireEvent.change(screen.getByTestId('ecoin-field-delta'), { target: { value: '-10' } });
    fireEvent.click(screen.getByTestId('ecoin-form-ok'));
    await waitFor(() => expect(api.count('adjustManufacturerEcoin')).toBe(1), SLOW);
    expect(
      Object.fromEntries(['uid', 'delta', 'reason'].map((k) => [k, api.last('adjustManufacturerEcoin')!.get(k)])),
    ).toEqual({
      uid: '2',
      delta: '-10',
      reason: 'correction',
    });
    await waitFor(() => expect(screen.getByTestId('ecoin-balance').textContent).toContain('30'), SLOW);
  });
});
