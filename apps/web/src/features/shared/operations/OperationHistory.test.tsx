import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { OperationLogRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import { OperationHistory } from './OperationHistory';

/** Upgrade entries of the operation history (issue 13): versions, outcome and the server's translated reason. */

function row(over: Partial<OperationLogRow>): OperationLogRow {
  return {
    id: 1,
    gts: '2026-11-28 10:00:00',
    usr: 'sunmaker',
    action: 'firmwareUpgradeDevice',
    kind: 'upgrade',
    pn: 'SWNORTH0000001',
    devcode: 5123,
    devaddr: 2,
    sn: 'SW5123N0000102',
    target: 'K1',
    before: '{"firmware":"BMS-2.1.0"}',
    after: '{"firmware":"BMS-2.2.0","status":2}',
    result: 2,
    detail: '',
    ...over,
  };
}

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

beforeEach(() => {
  saveLogin(authDat({ role: 1 }), { remember: false });
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
  await i18n.changeLanguage('en_US');
});

describe('OperationHistory: upgrade entries', () => {
  it('shows from → to versions, the outcome in the interface language and the reason as the server gives it', async () => {
    await i18n.changeLanguage('fr_FR');
    const log = [
      row({ id: 3, detail: "Le flashage a échoué sur l'enregistreur de données: flash write failed" }),
      row({ id: 2, result: 4, detail: 'cancelled by sunmaker', after: '{"firmware":"BMS-2.2.0","status":4}' }),
      row({ id: 1, result: 0, detail: '', after: '{"firmware":"BMS-2.1.0","status":3}', before: '{"firmware":""}' }),
    ];
    const asked: URLSearchParams[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const q = new URL(url, 'http://localhost').searchParams;
        asked.push(q);
        const action = q.get('action');
        const body =
          action === 'webQueryOperationLog'
            ? { err: 0, desc: 'ERR_NONE', dat: { total: log.length, page: 0, pagesize: 10, log } }
            : { err: 9, desc: 'ERR' };
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      }),
    );
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <Providers queryClient={qc}>
        <MemoryRouter>
          <OperationHistory pn="SWNORTH0000001" queryKey={['test-history']} />
        </MemoryRouter>
      </Providers>,
    );
    const outcomes = await screen.findAllByTestId('history-upgrade-outcome', {}, { timeout: 20_000 });
    expect(outcomes.map((o) => o.textContent)).toEqual([
      "Échec: Le flashage a échoué sur l'enregistreur de données: flash write failed",
      'Annulé manuellement: cancelled by sunmaker',
    ]);
    const table = screen.getByTestId('history-table');
    expect(
      within(table)
        .getAllByTestId('history-change')
        .map((c) => c.textContent),
    ).toEqual(['BMS-2.1.0 → BMS-2.2.0', 'BMS-2.1.0 → BMS-2.2.0', '-- → BMS-2.1.0']);
    // The interface language goes with the call, so the server translates the reason.
    const call = asked.find((q) => q.get('action') === 'webQueryOperationLog')!;
    expect(call.get('i18n') ?? call.get('lang')).toBe('fr_FR');
  }, 30_000);
});
