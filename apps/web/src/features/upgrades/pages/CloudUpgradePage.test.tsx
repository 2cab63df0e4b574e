import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UpgradeTaskRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import {
  installFakeApi,
  renderWithApp,
  resetAppTest,
  signInAs,
  type FakeAnswer,
  type FakeApi,
} from '../../../test/fake-api';
import CloudUpgradePage from './CloudUpgradePage';

function task(pn: string, status: number, progress: number, phase = 'transfer'): UpgradeTaskRow {
  return {
    key: `K-${pn}`,
    pn,
    target: 0,
    devcode: null,
    devaddr: null,
    sn: null,
    alias: '',
    firmware: { code: 'FW1', name: 'Demo', version: '2.0.0', type: 0 },
    fromVersion: '1.0.0',
    toVersion: '2.0.0',
    status,
    phase,
    progress,
    baudRate: null,
    error: '',
    usr: 'vendor',
    batch: 5,
    strategy: null,
    ts: '2026-11-25 10:00:00',
    uts: '2026-11-25 10:00:00',
    ets: null,
  };
}

type Answer = FakeAnswer;
/** The fake endpoint answering by a rule (test/fake-api.ts). */
function fakeServer(answer: (action: string, q: URLSearchParams) => Answer): FakeApi {
  return installFakeApi({}, answer);
}

const list = (tasks: UpgradeTaskRow[]): Answer => ({
  err: 0,
  dat: {
    total: tasks.length,
    page: 0,
    pagesize: 10,
    task: tasks,
    count: tasks.reduce<Record<string, number>>((c, t) => ({ ...c, [t.status]: (c[t.status] ?? 0) + 1 }), {}),
  },
});

function renderPage() {
  renderWithApp(<CloudUpgradePage />);
}

beforeEach(() => signInAs(1));
afterEach(resetAppTest);

describe('CloudUpgradePage', () => {
  it('shows live progress with one decimal and the outcomes in the user language, polls while a task runs and stops when none does', async () => {
    await i18n.changeLanguage('de_DE');
    let round = 0;
    const calls = fakeServer((action) => {
      if (action === 'queryFirmwareUpgrades') {
        round += 1;
        return round === 1
          ? list([task('SWA1', 0, 453), task('SWA2', 0, 0, 'waiting')])
          : list([task('SWA1', 3, 1000), task('SWA2', 1, 120)]);
      }
      if (action === 'webQueryCollectorsEs') return { err: 0, dat: { total: 0, page: 0, pagesize: 10, collector: [] } };
      return { err: 9 };
    });
    renderPage();
    const bar = await screen.findByTestId('upg-progress-SWA1', {}, { timeout: 20_000 });
    expect(bar.getAttribute('data-progress')).toBe('45.3');
    expect(within(bar).getByText('45.3 %')).toBeTruthy();
    expect(screen.getByTestId('upg-status-SWA1').textContent).toBe('Wird aktualisiert');
    expect(screen.getByTestId('upg-status-SWA2').textContent).toBe('Offline / wartet');
    // the next poll: completed and an abnormal exit with its message
    await waitFor(() => expect(screen.getByTestId('upg-status-SWA1').textContent).toBe('Abgeschlossen'), {
      timeout: 10_000,
    });
    expect(screen.getByTestId('upg-progress-SWA1').getAttribute('data-progress')).toBe('100.0');
    expect(screen.getByTestId('upg-status-SWA2').textContent).toBe('Abnormal beendet');
    expect(screen.getByText('Download-Fehler, bitte später erneut versuchen')).toBeTruthy();
    expect(screen.getByTestId('upg-count-3').textContent).toBe('Abgeschlossen: 1');
    // nothing runs any more: no further poll
    const polls = calls.count('queryFirmwareUpgrades');
    await new Promise((r) => setTimeout(r, 2600));
    expect(calls.count('queryFirmwareUpgrades')).toBe(polls);
  }, 120_000);

  it('cancels a running task after confirmation and reports a cancel failure', async () => {
    await i18n.changeLanguage('en_US');
    const calls = fakeServer((action) => {
      if (action === 'queryFirmwareUpgrades') return list([task('SWA1', 0, 300)]);
      if (action === 'cancelCollectorFirmwareUpgrade') return { err: 0, dat: { ret: 1, status: 3 } };
      if (action === 'webQueryCollectorsEs') return { err: 0, dat: { total: 0, page: 0, pagesize: 10, collector: [] } };
      return { err: 9 };
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('upg-cancel-K-SWA1', {}, { timeout: 20_000 }));
    expect(calls.count('cancelCollectorFirmwareUpgrade')).toBe(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the upgrade' }));
    await screen.findByText('Cancel failure: the upgrade had already ended', {}, { timeout: 10_000 });
    const c = calls.last('cancelCollectorFirmwareUpgrade')!;
    expect([c.get('pn'), c.get('key')]).toEqual(['SWA1', 'K-SWA1']);
  }, 120_000);

  it('starts a batch of the selected dataloggers and shows what it covered', async () => {
    await i18n.changeLanguage('en_US');
    const calls = fakeServer((action) => {
      if (action === 'queryFirmwareUpgrades') return list([]);
      if (action === 'webQueryCollectorsEs')
        return {
          err: 0,
          dat: {
            total: 2,
            page: 0,
            pagesize: 10,
            collector: ['SWA1', 'SWA2'].map((pn) => ({ pn, alias: pn, status: 0, fireware: '1.0.0', model: 'X1' })),
          },
        };
      if (action === 'queryFirmwares')
        return {
          err: 0,
          dat: {
            total: 2,
            page: 0,
            pagesize: 50,
            firmware: [
              { firmware: 'FW1', name: 'Demo', version: '2.0.0', type: 0, baudRate: null, signed: true },
              { firmware: 'FW0', name: 'Raw', version: '0.1', type: 0, baudRate: null, signed: false },
            ],
          },
        };
      if (action === 'firmwareUpgradeBatch')
        return {
          err: 0,
          dat: { batch: 8, total: 2, started: 1, waiting: 0, refused: [{ pn: 'SWA2', sn: '', ret: 3, err: 0 }] },
        };
      if (action === 'queryFirmwareUpgradeBatch')
        return {
          err: 0,
          dat: {
            batch: 8,
            state: 'materialising',
            target: 0,
            firmware: { code: 'FW1', name: 'Demo', version: '2.0.0' },
            usr: 'vendor',
            ts: '2026-11-25 10:00:00',
            total: 2,
            materialised: 1,
            refused: 1,
            started: 1,
            waiting: 0,
            done: 0,
            failed: 0,
            cancelled: 0,
            error: '',
          },
        };
      return { err: 9 };
    });
    renderPage();
    const submit = await screen.findByTestId('upg-submit');
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    // the firmware picker lists the library; an unsigned image cannot be picked
    fireEvent.mouseDown(within(screen.getByTestId('upg-start')).getAllByRole('combobox')[0]!);
    fireEvent.click(await screen.findByText('Demo 2.0.0 (General)', {}, { timeout: 20_000 }));
    const targets = await screen.findByTestId('upg-targets');
    await within(targets).findAllByText('SWA1', {}, { timeout: 20_000 });
    for (const box of within(targets).getAllByRole('checkbox').slice(1)) fireEvent.click(box);
    expect(screen.getByTestId('upg-selected-count').textContent).toContain('2 selected');
    fireEvent.click(screen.getByTestId('upg-submit'));
    const ok = await screen.findAllByRole('button', { name: 'Start upgrade' });
    fireEvent.click(ok[ok.length - 1]!);
    const result = await screen.findByTestId('upg-batch-result', {}, { timeout: 10_000 });
    expect(result.textContent).toContain('Batch 8: 2 targets, 1 started, 0 waiting for connection, 1 not started');
    expect(result.textContent).toContain('SWA2: Already upgrading');
    // the batch's progress: tasks created so far (page by page for a fleet) and targets ended
    const created = await screen.findByTestId('upg-batch-created', {}, { timeout: 10_000 });
    expect(created.textContent).toBe('Creating tasks: 1 of 2');
    expect(screen.getByTestId('upg-batch-finished').textContent).toBe('Finished: 1 of 2');
    expect(screen.getByTestId('upg-batch-counts').textContent).toContain('1 upgrading');
    expect(calls.last('queryFirmwareUpgradeBatch')!.get('batch')).toBe('8');
    const b = calls.last('firmwareUpgradeBatch')!;
    expect([b.get('firmware'), b.get('type'), b.get('pn')]).toEqual(['FW1', '0', 'SWA1,SWA2']);
  }, 120_000);
});
