import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ROLE, type OperatorHomeDat } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, renderWithApp, resetAppTest } from '../../../test/fake-api';
import OperatorHomePage from './OperatorHomePage';

/** Issue 14: the operator home shows the server's platform figures, charts and tables. */

const HOUR = 3_600_000;
const AT = Date.UTC(2026, 10, 28, 12, 30, 0);
const hours = <T,>(f: (i: number) => T) =>
  Array.from({ length: 24 }, (_, i) => ({ start: AT - (AT % HOUR) - (23 - i) * HOUR, ...f(i) }));

function home(over: Partial<OperatorHomeDat> = {}): OperatorHomeDat {
  return {
    at: AT,
    accounts: { manufacturers: 7, distributors: 42, owners: 1234 },
    plants: 987,
    dataloggers: { total: 20, online: 15, offline: 5 },
    devices: { total: 31, byStatus: [20, 5, 3, 2, 1, 0, 0] },
    ingest: {
      framesPerSec: 12.5,
      pointsPerSec: 650,
      frames24h: 1_080_000,
      points24h: 56_160_000,
      framesPerSec24h: 12.5,
      pointsPerSec24h: 650,
      instances: 2,
      hours: hours((i) => ({ frames: 45_000 + i, points: 2_340_000 + i })),
    },
    actions: {
      callsPerMin: 33.4,
      errorRate: 0.125,
      calls24h: 48_000,
      errors24h: 480,
      errorRate24h: 0.01,
      hours: hours((i) => ({ calls: 2000 + i, errors: i === 23 ? 40 : 20 })),
      slowest: [
        { action: 'webQueryDeviceHistory', calls: 1200, p99Ms: 2450, maxMs: 4100, avgMs: 310.5 },
        { action: 'queryCompanyKeyList', calls: 30, p99Ms: 120, maxMs: 130, avgMs: 40 },
      ],
    },
    storage: { engine: 'postgres', bytes: 5 * 1024 ** 3 },
    queues: {
      mailPending: 3,
      mailFailed: 1,
      exporting: 2,
      upgradesWaiting: 4,
      upgradesRunning: 6,
      jobs: [
        { name: 'detect-offline-dataloggers', lastRunAt: AT - 30_000, lastError: '', leaseUntil: AT },
        { name: 'mail-sender', lastRunAt: AT - 60_000, lastError: 'SMTP refused', leaseUntil: AT },
        { name: 'prune-ingest-minutes', lastRunAt: null, lastError: '', leaseUntil: 0 },
      ],
    },
    ...over,
  };
}

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('OperatorHomePage', () => {
  it('shows the platform figures, the charts, the slowest actions and the queues', async () => {
    const api = installFakeApi({ queryOperatorHome: ok(home()) });
    renderWithApp(<OperatorHomePage />, { role: ROLE.OPERATOR });
    await screen.findByTestId('operator-home');
    expect(api.count('queryOperatorHome')).toBe(1);
    expect(screen.getByTestId('home-manufacturers')?.textContent).toContain('7');
    expect(screen.getByTestId('home-distributors')?.textContent).toContain('42');
    expect(screen.getByTestId('home-owners')?.textContent).toContain('1,234');
    expect(screen.getByTestId('home-plants')?.textContent).toContain('987');
    expect(screen.getByTestId('home-dataloggers-online')?.textContent).toContain('15 of 20');
    expect(screen.getByTestId('home-storage')?.textContent).toContain('5 GB');

    // donuts: dataloggers online/offline, devices by status
    expect(within(screen.getByTestId('home-dataloggers')).getByRole('img').getAttribute('aria-label')).toContain(
      'Dataloggers',
    );
    const devices = screen.getByTestId('home-devices');
    expect(devices?.textContent).toContain('Normal');
    expect(devices?.textContent).toContain('Fault');
    expect(devices?.textContent).toContain('31');

    // ingest now and over 24 h, with hourly bars
    const ingest = screen.getByTestId('home-ingest');
    expect(ingest?.textContent).toContain('2 server instances');
    expect(ingest?.textContent).toContain('12.5');
    expect(ingest?.textContent).toContain('650');
    expect(ingest?.textContent).toContain('1,080,000');
    expect(within(screen.getByTestId('home-points-chart')).getByRole('img').getAttribute('aria-label')).toContain(
      '2,340,023',
    );
    // action rate and error rate, hourly calls and errors
    const actions = screen.getByTestId('home-actions');
    expect(actions?.textContent).toContain('33.4');
    expect(actions?.textContent).toContain('12.5%');
    expect(actions?.textContent).toContain('48,000');
    expect(actions?.textContent).toContain('1%');
    expect(within(screen.getByTestId('home-errors-chart')).getByRole('img').getAttribute('aria-label')).toContain('40');

    // slowest actions by p99
    const slow = screen.getByTestId('home-slowest');
    const rows = within(slow).getAllByRole('row');
    expect(rows[1]?.textContent).toContain('webQueryDeviceHistory');
    expect(rows[1]?.textContent).toContain('2.5 s');
    expect(rows[1]?.textContent).toContain('1,200');
    expect(rows[2]?.textContent).toContain('120 ms');

    // queues and jobs
    const queues = screen.getByTestId('home-queues');
    for (const label of [
      'Mails waiting',
      'Mails failed',
      'Exports in progress',
      'Upgrades waiting',
      'Upgrades running',
    ])
      expect(queues?.textContent).toContain(label);
    expect(within(queues).getByText('mail-sender').closest('tr')?.textContent).toContain('Failed');
    expect(within(queues).getByText('prune-ingest-minutes').closest('tr')?.textContent).toContain('Not run yet');
    expect(within(queues).getByText('detect-offline-dataloggers').closest('tr')?.textContent).toContain('OK');

    // refresh asks again
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(api.count('queryOperatorHome')).toBe(2));
  });

  it('an empty platform shows empty states, not broken charts', async () => {
    installFakeApi({
      queryOperatorHome: ok(
        home({
          dataloggers: { total: 0, online: 0, offline: 0 },
          devices: { total: 0, byStatus: [0, 0, 0, 0, 0, 0, 0] },
          actions: { ...home().actions, slowest: [] },
          queues: { ...home().queues, jobs: [] },
        }),
      ),
    });
    renderWithApp(<OperatorHomePage />, { role: ROLE.OPERATOR });
    await screen.findByTestId('operator-home');
    expect(screen.queryByTestId('home-devices')).toBeNull();
    expect(screen.getAllByText('None yet')).toHaveLength(2);
    expect(screen.getByText('No calls in the last 24 hours')).toBeTruthy();
    expect(screen.getByText('No background job has run yet')).toBeTruthy();
  });

  it('a refused call shows the error', async () => {
    installFakeApi({ queryOperatorHome: fail(11) });
    renderWithApp(<OperatorHomePage />, { role: ROLE.OPERATOR });
    expect(await screen.findByText('The platform figures could not be loaded')).toBeTruthy();
  });
});
