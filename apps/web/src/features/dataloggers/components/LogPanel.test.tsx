import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { ROLE, type CollectorLogRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, ok, renderWithApp, resetAppTest } from '../../../test/fake-api';
import { LogPanel } from './LogPanel';

/** Issue 14: a refused sign-in in a datalogger's own log shows its reason in words. */

const row = (over: Partial<CollectorLogRow>): CollectorLogRow => ({
  id: 1,
  ts: Date.UTC(2026, 10, 27, 9),
  gts: '2026-11-27 09:00:00',
  kind: 'connect',
  cmd: '',
  result: 0,
  usr: '',
  detail: '',
  ...over,
});

beforeEach(() => i18n.changeLanguage('en_US'));
afterEach(resetAppTest);

describe('LogPanel', () => {
  it('translates the reason of a refused sign-in and keeps other details as they are', async () => {
    installFakeApi({
      webQueryCollectorLog: ok({
        total: 3,
        page: 0,
        pagesize: 20,
        log: [
          row({ id: 3, kind: 'auth_fail', detail: 'wrong_token' }),
          row({ id: 2, kind: 'auth_fail', detail: 'client_id dl-X/1' }),
          row({ id: 1, kind: 'connect', detail: 'dl-SWA 10.0.0.1' }),
        ],
      }),
    });
    renderWithApp(<LogPanel pn="SWA0000000001" timezone={0} />, { role: ROLE.MANUFACTURER });
    expect(await screen.findByText('Wrong device token')).toBeTruthy();
    expect(screen.getByText('Client ID not allowed for this PN dl-X/1')).toBeTruthy();
    expect(screen.getByText('dl-SWA 10.0.0.1')).toBeTruthy();
  });
});
