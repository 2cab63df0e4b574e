import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import {
  ROLE,
  type LogRetention,
  type WebErrorEventDetail,
  type WebErrorEventRow,
  type WebErrorGroupRow,
} from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, ok, renderWithApp, resetAppTest } from '../../../test/fake-api';
import { stubViewport } from '../../../test/viewport';
import ActionLogPage from './ActionLogPage';

/** Issue 16: the operator reads the web app's reported errors beside the action log (tab `web`). */

const TS = Date.UTC(2026, 10, 27, 9, 30, 0);
const FP = 'a'.repeat(40);

const group = (over: Partial<WebErrorGroupRow> = {}): WebErrorGroupRow => ({
  fingerprint: FP,
  kind: 'error',
  message: 'TypeError: Cannot read properties of undefined',
  route: '/adminNew/project',
  count: 7,
  sessions: 3,
  accounts: 2,
  firstSeen: TS - 3600_000,
  lastSeen: TS,
  release: '2026.11.27',
  lastId: 11,
  ...over,
});
const row = (over: Partial<WebErrorEventRow> = {}): WebErrorEventRow => ({
  id: 11,
  fingerprint: FP,
  kind: 'error',
  source: 'onerror',
  message: 'TypeError: Cannot read properties of undefined',
  url: '/adminNew/project?pid=4',
  route: '/adminNew/project',
  release: '2026.11.27',
  userAgent: 'Mozilla/5.0 Test',
  accountId: 7,
  usr: 'owner_anna',
  tenantId: 2,
  durationMs: null,
  count: 5,
  firstSeen: TS - 3600_000,
  lastSeen: TS,
  ...over,
});
const DETAIL: WebErrorEventDetail = {
  ...row(),
  stack: 'TypeError: Cannot read\n    at PlantCard (PlantCard.js:1:2)',
  breadcrumbs: [
    { ts: TS - 2000, type: 'route', message: '/adminNew/project' },
    { ts: TS - 1000, type: 'click', message: 'button "Save"' },
  ],
};
const RETENTION: LogRetention = {
  actionLogDays: 90,
  collectorLogDays: 90,
  sampleDays: 730,
  source: { actionLog: 'default', collectorLog: 'default', samples: 'default' },
  defaults: { actionLogDays: 90, collectorLogDays: 90, sampleDays: 730 },
  lastPruneAt: null,
  lastPruneError: '',
};

let search = '';
function Location() {
  search = useLocation().search;
  return null;
}

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

function fake() {
  return installFakeApi({
    queryLogRetention: ok(RETENTION),
    queryActionLog: ok({ total: 0, page: 0, pagesize: 20, log: [] }),
    queryWebErrorGroups: ok({
      total: 2,
      page: 0,
      pagesize: 20,
      group: [
        group(),
        group({ fingerprint: 'b'.repeat(40), kind: 'trace', message: 'Slow navigation: 4500 ms', lastId: 12 }),
      ],
      releases: ['2026.11.27', '2026.11.20'],
    }),
    queryWebErrorEvents: ok({ total: 1, page: 0, pagesize: 20, event: [row()] }),
    queryWebErrorEvent: ok(DETAIL),
  });
}

describe('web errors beside the action log', () => {
  it('the tab lists groups from the server, filters by kind and release in the address bar, pages on the server', async () => {
    const api = fake();
    renderWithApp(
      <>
        <ActionLogPage />
        <Location />
      </>,
      { role: ROLE.OPERATOR, path: '/?tab=web&kind=error' },
    );
    const rows = await screen.findAllByTestId('web-error-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('TypeError: Cannot read properties of undefined')).toBeTruthy();
    expect(within(rows[1]!).getByText('Slow page')).toBeTruthy();
    expect(api.last('queryWebErrorGroups')!.get('kind')).toBe('error');
    expect(api.last('queryWebErrorGroups')!.get('page')).toBe('0');
    expect(api.count('queryActionLog')).toBe(0); // the calls tab is not rendered

    // release filter (options from the server's list), kept with the tab in the address bar
    fireEvent.mouseDown(within(screen.getByTestId('web-errors-release')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('2026.11.20'));
    await waitFor(() => expect(api.last('queryWebErrorGroups')!.get('release')).toBe('2026.11.20'));
    const q = new URLSearchParams(search);
    expect([q.get('tab'), q.get('kind'), q.get('release')]).toEqual(['web', 'error', '2026.11.20']);
  });

  it('a group opens a drawer with the latest event: stack and breadcrumb trail; works at 360 px', async () => {
    stubViewport(360);
    const api = fake();
    renderWithApp(<ActionLogPage />, { role: ROLE.OPERATOR, path: '/?tab=web' });
    fireEvent.click((await screen.findAllByTestId('web-error-row'))[0]!);
    const drawer = await screen.findByTestId('web-error-drawer');
    expect(await within(drawer).findByTestId('web-error-stack')).toBeTruthy();
    expect(within(drawer).getByTestId('web-error-stack').textContent).toContain('PlantCard');
    const crumbs = within(drawer).getByTestId('web-error-breadcrumbs');
    expect(within(crumbs).getByText('button "Save"')).toBeTruthy();
    expect(within(crumbs).getByText('Click')).toBeTruthy();
    expect(within(drawer).getByText('owner_anna')).toBeTruthy();
    expect(api.last('queryWebErrorEvent')!.get('id')).toBe('11');
    expect(api.last('queryWebErrorEvents')!.get('fingerprint')).toBe(FP);
  });

  it('switching tabs keeps the calls tab as it was (no tab parameter)', async () => {
    const api = fake();
    renderWithApp(
      <>
        <ActionLogPage />
        <Location />
      </>,
      { role: ROLE.OPERATOR, path: '/' },
    );
    await waitFor(() => expect(api.count('queryActionLog')).toBe(1));
    fireEvent.click(screen.getByRole('tab', { name: 'Web errors' }));
    await screen.findAllByTestId('web-error-row');
    expect(new URLSearchParams(search).get('tab')).toBe('web');
  });
});
