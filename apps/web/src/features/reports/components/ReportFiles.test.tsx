import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ReportFileRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import { ReportFiles } from './ReportFiles';

/** The downloads started (saveUrlAs clicks a temporary link; the click is caught here). */
const saved: Array<{ url: string; name: string }> = [];

const row = (over: Partial<ReportFileRow>): ReportFileRow => ({
  id: 7,
  origin: 'report',
  kind: 'plant',
  name: 'Roof_Monthly_2026-10.xlsx',
  size: 2048,
  status: 1,
  progress: 100,
  gts: '2026-11-24 10:00:00',
  fts: '2026-11-24 10:00:05',
  scope: 'plant',
  type: 'monthly',
  date: '2026-10',
  sdate: '2026-10-01',
  edate: '2026-10-31',
  plantid: 3,
  target: 'Roof',
  pn: '',
  sn: '',
  devcode: 0,
  devaddr: 0,
  ...over,
});

/** The server's history, newest first: a device export and a plant report share id 7. */
const ROWS: ReportFileRow[] = [
  row({
    id: 7,
    origin: 'export',
    kind: 'device',
    name: 'Hybrid Nord_2026-11-20_2026-11-24.xlsx',
    gts: '2026-11-24 11:00:00',
    scope: 'device',
    type: 'custom',
    date: '',
    sdate: '2026-11-20',
    edate: '2026-11-24',
    target: 'Hybrid Nord',
    sn: 'SW2341N0000101',
  }),
  row({}),
  row({
    id: 6,
    kind: 'alarms',
    scope: 'alarms',
    type: 'alarms',
    name: 'Alarm list_20261123-0900.xlsx',
    gts: '2026-11-23 09:00:00',
  }),
];

function fakeServer(answers: Record<string, (q: URLSearchParams) => { err: number; dat?: unknown }>) {
  const calls: Array<{ action: string; q: URLSearchParams }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      const action = q.get('action') ?? '';
      calls.push({ action, q });
      const answer = answers[action]?.(q) ?? { err: 9 };
      return new Response(JSON.stringify({ desc: answer.err ? 'ERR' : 'ERR_NONE', ...answer }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return { of: (action: string) => calls.filter((c) => c.action === action) };
}

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(async () => {
  saved.length = 0;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ url: this.href, name: this.download });
  });
  await i18n.changeLanguage('en_US');
  saveLogin(authDat({ role: 0, usr: 'owner_anna' }), { remember: false });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  clearSession();
});

describe('ReportFiles (one export history)', () => {
  it('lists device exports, plant reports and alarm lists with their kind; downloads and deletes a device export by its origin', async () => {
    let rows = ROWS;
    const server = fakeServer({
      webQueryReportFiles: (q) => ({
        err: 0,
        dat: { total: 12, page: Number(q.get('page')), pagesize: 10, file: Number(q.get('page')) === 0 ? rows : [] },
      }),
      queryReportFileUrl: (q) => ({
        err: 0,
        dat: {
          url: `/export/${q.get('origin') === 'export' ? 'file' : 'report'}/${q.get('id')}?exp=1&sig=s`,
          name: 'x.xlsx',
          expire: 1,
        },
      }),
      delReportFile: (q) => {
        rows = rows.filter((r) => !(r.id === Number(q.get('id')) && r.origin === (q.get('origin') ?? 'report')));
        return { err: 0 };
      },
    });
    render(
      <Providers queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <ReportFiles />
        </MemoryRouter>
      </Providers>,
    );
    const list = await screen.findByTestId('report-file-list', {}, { timeout: 20_000 });
    const items = within(list).getAllByTestId('report-file');
    expect(items.map((i) => [i.dataset.origin, i.dataset.id, i.dataset.kind])).toEqual([
      ['export', '7', 'device'],
      ['report', '7', 'plant'],
      ['report', '6', 'alarms'],
    ]);
    expect(
      within(list)
        .getAllByTestId('report-file-kind')
        .map((t) => t.textContent),
    ).toEqual(['Device report', 'Plant report', 'Alarm list']);
    expect(within(items[0]!).getByText('2026-11-20 ~ 2026-11-24')).toBeTruthy();
    // The total and the pages come from the server (both tables).
    expect(screen.getByText('12 in total')).toBeTruthy();
    expect(screen.getByTestId('report-files-page').textContent).toBe('1 / 2');

    fireEvent.click(screen.getByTestId('report-download-export-7'));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
    expect(saved[0]!.url.endsWith('/export/file/7?exp=1&sig=s')).toBe(true);
    const asked = server.of('queryReportFileUrl')[0]!.q;
    expect([asked.get('id'), asked.get('origin')]).toEqual(['7', 'export']);

    fireEvent.click(screen.getByTestId('report-download-7'));
    await waitFor(() => expect(saved).toHaveLength(2), { timeout: 10_000 });
    expect(saved[1]!.url.endsWith('/export/report/7?exp=1&sig=s')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Hybrid Nord_2026-11-20_2026-11-24.xlsx' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 20_000 });
    fireEvent.click(within(dialog).getByRole('button', { name: /Delete/ }));
    await waitFor(() => expect(server.of('delReportFile')).toHaveLength(1), { timeout: 10_000 });
    const del = server.of('delReportFile')[0]!.q;
    expect([del.get('id'), del.get('origin')]).toEqual(['7', 'export']);
    await waitFor(() => expect(screen.getAllByTestId('report-file')).toHaveLength(2), { timeout: 10_000 });
    expect(screen.getAllByTestId('report-file').map((i) => i.dataset.origin)).toEqual(['report', 'report']);
  }, 60_000);
});
