import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import type { CompanyKeyRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, ok, renderWithApp, resetAppTest } from '../../../test/fake-api';
import KeyListPage from './KeyListPage';

/** Issue 14, KEYList: page, page size, search and filters are in the address bar (the list kit). */

const ROLE_OPERATOR = 15;

function key(id: number, over: Partial<CompanyKeyRow> = {}): CompanyKeyRow {
  return {
    id,
    company: `Company ${id}`,
    version: '',
    client: 'android',
    domain: `c${id}.example`,
    contact: '',
    keyHint: `${1000 + id}`,
    description: '',
    enabled: true,
    hostname: `app.c${id}.example`,
    seeded: false,
    createdAt: 0,
    updatedAt: 0,
    updatedBy: 'operator',
    ...over,
  };
}

const where = { current: '' };
function Where() {
  const loc = useLocation();
  where.current = loc.pathname + loc.search;
  return null;
}

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('KeyListPage', () => {
  it('reads the page and filters from the address bar, and a filter change goes back to page 1 there', async () => {
    const api = installFakeApi({
      queryCompanyKeyList: (q) =>
        ok({ total: 25, page: Number(q.get('page')), pagesize: 10, keys: [key(Number(q.get('page')) * 10 + 1)] }),
    });
    renderWithApp(
      <>
        <KeyListPage />
        <Where />
      </>,
      { role: ROLE_OPERATOR, path: '/KEYList?page=2&client=android&q=roof' },
    );
    await screen.findByText('Company 11');
    const first = api.last('queryCompanyKeyList')!;
    expect(first.get('page')).toBe('1');
    expect(first.get('pagesize')).toBe('10');
    expect(first.get('client')).toBe('android');
    expect(first.get('search')).toBe('roof');
    expect(first.get('enabled')).toBeNull();

    // the pager writes the next page to the address bar
    fireEvent.click(screen.getByTitle('3'));
    await screen.findByText('Company 21');
    expect(where.current).toBe('/KEYList?page=3&q=roof&client=android');

    // a status filter goes back to page 1
    fireEvent.mouseDown(within(screen.getByTestId('key-status-filter')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Disabled'));
    await waitFor(() => expect(where.current).toBe('/KEYList?q=roof&client=android&status=disabled'));
    await waitFor(() => expect(api.last('queryCompanyKeyList')!.get('enabled')).toMatch(/^(0|false)$/));
    expect(api.last('queryCompanyKeyList')!.get('page')).toBe('0');
  }, 30_000);
});
