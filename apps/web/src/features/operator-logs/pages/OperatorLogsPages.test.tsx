import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { ROLE, type ActionLogRow, type LogRetention, type OperatorCollectorLogRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, renderWithApp, resetAppTest } from '../../../test/fake-api';
import { collectorLogParams, COLLECTOR_LOG_SPEC, dayRange } from '../model';
import ActionLogPage from './ActionLogPage';
import CollectorLogsPage from './CollectorLogsPage';

/** Issue 14: the operator's `log` (platform datalogger log) and `actionLog` pages. */

const TS = Date.UTC(2026, 10, 27, 9, 30, 0);

function event(over: Partial<OperatorCollectorLogRow>): OperatorCollectorLogRow {
  return { id: 1, ts: TS, pn: 'SWA0000000001', kind: 'connect', cmd: '', result: 0, usr: '', detail: '', ...over };
}

function call(over: Partial<ActionLogRow>): ActionLogRow {
  return {
    id: 1,
    ts: TS,
    accountId: 7,
    usr: 'sunmaker',
    action: 'queryPlants',
    ip: '10.1.2.3',
    userAgent: 'Mozilla/5.0 Test',
    params: { page: '0', sign: '***' },
    err: 0,
    durationMs: 12,
    ...over,
  };
}

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

describe('the log page (platform datalogger log)', () => {
  it('reads its filters from the address bar, shows refused sign-ins with their reason, and pages on the server', async () => {
    const api = installFakeApi({
      queryLogRetention: ok(RETENTION),
      queryCollectorLogs: (_p, n) =>
        ok({
          total: 45,
          page: n === 0 ? 0 : 1,
          pagesize: 20,
          log: [
            event({ id: 3, kind: 'auth_fail', detail: 'wrong_token' }),
            event({ id: 2, kind: 'auth_fail', pn: 'SWB0000000002', detail: 'client_id dl-SWA0000000001' }),
            event({ id: 1, kind: 'timeout', cmd: 'reboot', result: 2, usr: 'operator' }),
          ],
        }),
    });
    renderWithApp(
      <>
        <CollectorLogsPage />
        <Location />
      </>,
      { role: ROLE.OPERATOR, path: '/?q=swa&kinds=auth_fail,timeout&result=failed&from=2026-11-20&to=2026-11-27' },
    );
    const rows = await screen.findAllByTestId('collector-log-row');
    expect(rows).toHaveLength(3);
    const first = api.last('queryCollectorLogs')!;
    expect(first.get('pn')).toBe('SWA');
    expect(first.get('exact')).toBeNull();
    expect(first.get('kinds')).toBe('auth_fail,timeout');
    expect(first.get('result')).toBe('failed');
    const range = dayRange('2026-11-20', '2026-11-27');
    expect(Number(first.get('from'))).toBe(range.from);
    expect(Number(first.get('to'))).toBe(range.to);

    const reasons = screen.getAllByTestId('collector-log-reason');
    expect(reasons.map((r) => r.getAttribute('data-reason'))).toEqual(['wrong_token', 'client_id']);
    expect(reasons[0]!.textContent).toBe('Wrong device token');
    expect(reasons[1]!.textContent).toContain('Client ID not allowed for this PN');
    expect(reasons[1]!.textContent).toContain('dl-SWA0000000001');
    expect(within(rows[2]!).getByText('reboot')).toBeTruthy();
    expect(screen.getByText('Entries: 45')).toBeTruthy();
    expect(screen.getByText(/Retention \(days\): 90/)).toBeTruthy();

    // Page 2: the wire's page 1, the address bar keeps the filters.
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(api.last('queryCollectorLogs')!.get('page')).toBe('1'));
    expect(api.last('queryCollectorLogs')!.get('kinds')).toBe('auth_fail,timeout');
    expect(new URLSearchParams(search).get('page')).toBe('2');

    // A PN of a row narrows to exactly that PN (back to page 1).
    fireEvent.click(within(rows[1]!).getByTestId('collector-log-pn'));
    await waitFor(() => expect(api.last('queryCollectorLogs')!.get('exact')).toBe('1'));
    expect(api.last('queryCollectorLogs')!.get('pn')).toBe('SWB0000000002');
    expect(api.last('queryCollectorLogs')!.get('page')).toBe('0');
    const q = new URLSearchParams(search);
    expect([q.get('q'), q.get('exact'), q.get('page')]).toEqual(['SWB0000000002', '1', null]);
  });

  it('asks nothing for a range over the limit and says why; a server error shows in place of the table', async () => {
    const api = installFakeApi({ queryLogRetention: ok(RETENTION), queryCollectorLogs: fail(3) });
    renderWithApp(<CollectorLogsPage />, { role: ROLE.OPERATOR, path: '/?from=2026-01-01&to=2026-03-01' });
    expect(await screen.findByText('Choose at most 31 days.')).toBeTruthy();
    expect(api.count('queryCollectorLogs')).toBe(0);
    resetAppTest();
    installFakeApi({ queryLogRetention: ok(RETENTION), queryCollectorLogs: fail(3) });
    renderWithApp(<CollectorLogsPage />, { role: ROLE.OPERATOR, path: '/' });
    expect(await screen.findByTestId('list-error')).toBeTruthy();
  });

  it('defaults to yesterday and today', () => {
    const now = Date.UTC(2026, 10, 28, 12);
    const p = collectorLogParams(
      { ...COLLECTOR_LOG_SPEC.readFilters(new URLSearchParams()), current: 1, pageSize: 20, search: '' },
      now,
    );
    expect(p.to - p.from).toBe(2 * 86_400_000);
    expect(p).not.toHaveProperty('pn');
  });
});

describe('the actionLog page', () => {
  it('filters from the address bar, newest first, opens a call’s redacted params in a drawer', async () => {
    const api = installFakeApi({
      queryLogRetention: ok(RETENTION),
      queryActionLog: ok({
        total: 2,
        page: 0,
        pagesize: 20,
        log: [
          call({ id: 2, action: 'editAccount', err: 11, params: { uid: '9', newpwd: '***', token: '***' } }),
          call({ id: 1, usr: '', accountId: null, action: 'auth', params: '{"usr":"x","pwd":"***' }),
        ],
      }),
    });
    renderWithApp(
      <>
        <ActionLogPage />
        <Location />
      </>,
      { role: ROLE.OPERATOR, path: '/?q=sun*&act=edit*&errOnly=1&ip=10.1.&from=2026-11-01&to=2026-11-27' },
    );
    const rows = await screen.findAllByTestId('action-log-row');
    expect(rows).toHaveLength(2);
    const p = api.last('queryActionLog')!;
    expect([p.get('usr'), p.get('actionName'), p.get('errOnly'), p.get('ip'), p.get('err')]).toEqual([
      'sun*',
      'edit*',
      '1',
      '10.1.',
      null,
    ]);
    expect(Number(p.get('from'))).toBe(dayRange('2026-11-01', '2026-11-27').from);
    expect(within(rows[1]!).getByText('(no account)')).toBeTruthy();

    fireEvent.click(within(rows[0]!).getByText('editAccount'));
    const params = await screen.findByTestId('action-log-params');
    expect(JSON.parse(params.textContent!)).toEqual({ uid: '9', newpwd: '***', token: '***' });
    const drawer = screen.getByTestId('action-log-drawer');
    expect(within(drawer).getByText('Mozilla/5.0 Test')).toBeTruthy();
    expect(within(drawer).getByText('Secret values are replaced by ***.')).toBeTruthy();

    // The error filter "code": err in the wire and the address bar instead of errOnly.
    fireEvent.mouseDown(within(screen.getByTestId('action-log-err-filter')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('Error code…'));
    await waitFor(() => expect(api.last('queryActionLog')!.get('err')).toBe('0'));
    expect(api.last('queryActionLog')!.get('errOnly')).toBeNull();
    expect(new URLSearchParams(search).get('err')).toBe('0');
  });

  it('the retention panel saves changed days only and shows the answer', async () => {
    const api = installFakeApi({
      queryLogRetention: ok(RETENTION),
      queryActionLog: ok({ total: 0, page: 0, pagesize: 20, log: [] }),
      setLogRetention: (q) =>
        ok({
          ...RETENTION,
          actionLogDays: Number(q.get('actionLogDays')),
          source: { actionLog: 'setting', collectorLog: 'default', samples: 'default' },
        }),
    });
    renderWithApp(<ActionLogPage />, { role: ROLE.OPERATOR });
    const input = await screen.findByLabelText('Action log');
    expect((screen.getByTestId('retention-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '30' } });
    await waitFor(() => expect((screen.getByTestId('retention-save') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('retention-save'));
    await waitFor(() => expect(api.count('setLogRetention')).toBe(1));
    const sent = api.last('setLogRetention')!;
    expect(sent.get('actionLogDays')).toBe('30');
    expect(sent.get('collectorLogDays')).toBeNull();
    expect(sent.get('sampleDays')).toBeNull();
    expect(await screen.findByText('Set by an operator (default 90)')).toBeTruthy();
  });

  it('the retention panel sends the raw-sample days (issue 16)', async () => {
    const api = installFakeApi({
      queryLogRetention: ok(RETENTION),
      queryActionLog: ok({ total: 0, page: 0, pagesize: 20, log: [] }),
      setLogRetention: (q) =>
        ok({
          ...RETENTION,
          sampleDays: Number(q.get('sampleDays')),
          source: { actionLog: 'default', collectorLog: 'default', samples: 'setting' },
        }),
    });
    renderWithApp(<ActionLogPage />, { role: ROLE.OPERATOR });
    const input = await screen.findByLabelText('Raw samples');
    expect((input as HTMLInputElement).value).toBe('730');
    expect(screen.getByText(/Daily totals are kept for ever\./)).toBeTruthy();
    fireEvent.change(input, { target: { value: '365' } });
    await waitFor(() => expect((screen.getByTestId('retention-save') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('retention-save'));
    await waitFor(() => expect(api.count('setLogRetention')).toBe(1));
    const sent = api.last('setLogRetention')!;
    expect(sent.get('sampleDays')).toBe('365');
    expect(sent.get('actionLogDays')).toBeNull();
    expect(await screen.findByText('Set by an operator (default 730)')).toBeTruthy();
  });
});
