import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ManufacturerCodeRow } from '@sunwatch/protocol';
import { installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import ManufacturerCodesPage from './ManufacturerCodesPage';

const RULE: ManufacturerCodeRow = {
  id: 5,
  vendorUid: 2,
  vendorUsr: 'sunmaker',
  code: 'QX',
  typeCode: 'A',
  prefix: 'QXA',
  enabled: true,
  updatedBy: 'operator',
  updatedAt: 0,
};

/** The machine may be busy (CI, parallel runs): waits end as soon as their condition holds. */
const SLOW = { timeout: 15_000 };

afterEach(resetAppTest);

describe('factoryCode page', { timeout: 90_000 }, () => {
  it('pages through the list kit: the page is in the address bar and goes to the server', async () => {
    const api = installFakeApi({
      queryManufacturerCodes: ok({ total: 25, page: 1, pagesize: 10, codes: [RULE] }),
      webQueryUsrEs: paged('account', []),
    });
    renderWithApp(<ManufacturerCodesPage />, { role: 15, path: '/adminNewStatr/home/factoryCode?page=2&q=qx' });
    await screen.findByText('QXA', undefined, SLOW);
    expect(api.last('queryManufacturerCodes')?.get('page')).toBe('1');
    expect(api.last('queryManufacturerCodes')?.get('search')).toBe('qx');
    expect(screen.getByText('Rules: 25')).toBeTruthy();
  });

  it('edits a rule (type code, enabled) and deletes one after confirmation', async () => {
    const api = installFakeApi({
      queryManufacturerCodes: paged('codes', [RULE]),
      webQueryUsrEs: paged('account', [{ uid: 2, usr: 'sunmaker', qname: '' }]),
      editManufacturerCode: ok(),
      deleteManufacturerCode: ok(),
    });
    renderWithApp(<ManufacturerCodesPage />, { role: 15 });
    fireEvent.click(await screen.findByTestId('code-edit', undefined, SLOW));
    const form = await screen.findByTestId('code-form', undefined, SLOW);
    expect((screen.getByTestId('code-field-code') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('code-field-type'), { target: { value: '1' } });
    fireEvent.click(screen.getByTestId('code-form-ok'));
    await within(form).findByText('The type code must be a single letter', undefined, SLOW);
    expect(api.count('editManufacturerCode')).toBe(0);
    fireEvent.change(screen.getByTestId('code-field-type'), { target: { value: 'b' } });
    fireEvent.click(screen.getByTestId('code-field-enabled'));
    fireEvent.click(screen.getByTestId('code-form-ok'));
    await waitFor(() => expect(api.count('editManufacturerCode')).toBe(1), SLOW);
    const p = api.last('editManufacturerCode')!;
    expect([p.get('id'), p.get('vendorUid'), p.get('typeCode'), p.get('enabled')]).toEqual(['5', '2', 'b', 'false']);

    await waitFor(() => expect(screen.queryByTestId('code-form')).toBeNull(), SLOW);
    fireEvent.click(screen.getByTestId('code-delete'));
    fireEvent.click(await screen.findByTestId('code-delete-ok', undefined, SLOW));
    await waitFor(() => expect(api.count('deleteManufacturerCode')).toBe(1), SLOW);
    expect(api.last('deleteManufacturerCode')?.get('id')).toBe('5');
  });
});
