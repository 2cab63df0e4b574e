import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ExportFileRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import { ExportFiles } from './ExportFiles';

const file = (over: Partial<ExportFileRow> = {}): ExportFileRow => ({
  id: 41,
  name: 'Hybrid Nord_2026-11-20_2026-11-24.xlsx',
  size: 0,
  status: 2,
  progress: 40,
  gts: '2026-11-24 10:00:00',
  pn: 'SWNORTH0000001',
  sn: 'SW2341N0000101',
  sdate: '2026-11-20',
  edate: '2026-11-24',
  ...over,
});

/** A fake action endpoint: answers by action, records every call's parameters. */
function fakeServer(answers: Record<string, (q: URLSearchParams) => { err: number; dat?: unknown; msg?: string }>) {
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

const files = (rows: ExportFileRow[]) => ({ err: 0, dat: { total: rows.length, page: 0, pagesize: 10, file: rows } });

function renderFiles() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Providers queryClient={qc}>
      <MemoryRouter>
        <ExportFiles />
      </MemoryRouter>
    </Providers>,
  );
}

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
  saveLogin(authDat({ role: 0, usr: 'owner_anna' }), { remember: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('ExportFiles', () => {
  it('retries a failed export on the same record and follows its progress until it is downloadable', async () => {
    // The server's state of file 41: failed, then exporting after the retry, then ready.
    let state: 'failed' | 'exporting' | 'ready' = 'failed';
    const server = fakeServer({
      webQueryExportFiles: () => {
        const now = state;
        return files([
          now === 'failed'
            ? file()
            : now === 'exporting'
              ? file({ status: 0, progress: 60 })
              : file({ status: 1, progress: 100, size: 20480 }),
          file({ id: 40, status: 1, progress: 100, size: 1024, name: 'older.xlsx' }),
        ]);
      },
      retryExportFile: () => {
        state = 'exporting';
        return { err: 0, dat: file({ status: 0, progress: 0 }) };
      },
    });
    renderFiles();
    expect(await screen.findByTestId('export-failed-41', {}, { timeout: 20_000 })).toBeTruthy();
    // only the failed file offers a retry; it cannot be downloaded
    expect(screen.queryByTestId('export-retry-40')).toBeNull();
    expect((screen.getByTestId('export-download-41') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('export-retry-41'));
    await waitFor(() => expect(server.of('retryExportFile')).toHaveLength(1), { timeout: 10_000 });
    expect(server.of('retryExportFile')[0]!.q.get('id')).toBe('41');
    expect(await screen.findByText('Export started again: Hybrid Nord_2026-11-20_2026-11-24.xlsx', {}, { timeout: 20_000 })).toBeTruthy();
    // the list reloads: exporting, with its progress, and no retry while it runs
    expect(await screen.findByTestId('export-exporting-41', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
    expect(screen.queryByTestId('export-retry-41')).toBeNull();
    // built on the server: the list, polled while a file is exporting, shows it downloadable
    state = 'ready';
    await waitFor(() => expect((screen.getByTestId('export-download-41') as HTMLButtonElement).disabled).toBe(false), { timeout: 10_000 });
    expect(screen.getAllByTestId('export-ready')).toHaveLength(2);
  }, 60_000);

  it('shows why a retry is refused', async () => {
    const server = fakeServer({
      webQueryExportFiles: () => files([file()]),
      retryExportFile: () => ({ err: 12 }),
    });
    renderFiles();
    fireEvent.click(await screen.findByTestId('export-retry-41', {}, { timeout: 20_000 }));
    await waitFor(() => expect(server.of('retryExportFile')).toHaveLength(1), { timeout: 10_000 });
    expect(await screen.findByText(i18n.t('12', { ns: 'errors' }), {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByTestId('export-failed-41')).toBeTruthy();
  }, 60_000);
});
