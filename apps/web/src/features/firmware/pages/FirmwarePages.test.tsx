import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FirmwareRow } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { installFakeApi, renderWithApp, resetAppTest, signInAs, type FakeAnswer } from '../../../test/fake-api';
import FirmwareManagerPage from './FirmwareManagerPage';
import UpgFirmwarePage from './UpgFirmwarePage';

function row(over: Partial<FirmwareRow> = {}): FirmwareRow {
  return {
    firmware: '0123456789abcdef',
    name: 'DL4G main',
    version: '2.1.0',
    type: 1,
    baudRate: null,
    desc: 'stable',
    upgradeMode: 0,
    note: '',
    notes: {},
    origin: 0,
    fileName: 'dl4g-2.1.0.bin',
    size: 131072,
    sha256: 'ab'.repeat(32),
    signed: true,
    keyFingerprint: 'SHA256:demo',
    keyRevoked: false,
    vendor: 'sunmaker',
    uploadTime: '2026-11-25 10:00:00',
    defaultFor: ['SW-DL4G'],
    ...over,
  };
}

type Answer = FakeAnswer;

/** A manufacturer's server: one firmware, no fleet types, one key; `more` answers the rest. */
function library(more: (action: string, q: URLSearchParams) => Answer | undefined = () => undefined, keysErr = 0) {
  return installFakeApi({}, (action, q) => {
    const m = more(action, q);
    if (m) return m;
    if (action === 'queryFirmwares') return { err: 0, dat: { total: 1, page: 0, pagesize: 10, firmware: [row()] } };
    if (action === 'queryDefaultFirmwares')
      return { err: 0, dat: { types: [{ dataloggerType: 'SW-DL4G', dataloggers: 3, firmware: row() }] } };
    if (action === 'queryFirmwareKeys')
      return keysErr
        ? { err: keysErr }
        : {
            err: 0,
            dat: {
              keys: [
                {
                  id: 1,
                  name: 'demo',
                  publicKey: 'AAAA',
                  fingerprint: 'SHA256:demo',
                  createTime: '2026-11-01 00:00:00',
                  revokeTime: '',
                },
              ],
            },
          };
    return { err: 9 };
  });
}

function renderPage(page: 'manager' | 'upg') {
  renderWithApp(page === 'manager' ? <FirmwareManagerPage /> : <UpgFirmwarePage />);
}

beforeEach(() => signInAs(1));
afterEach(resetAppTest);

describe('firmware manager page', () => {
  it('lists the manager library (origin 0) in the user language with its signature, defaults and the signing keys', async () => {
    await i18n.changeLanguage('de_DE');
    const calls = library();
    renderPage('manager');
    const r = await screen.findByTestId('fw-row', {}, { timeout: 10_000 });
    expect(within(r).getByText('Kommunikation')).toBeTruthy();
    expect(within(r).getByTestId('fw-signed').getAttribute('data-signed')).toBe('1');
    expect(within(r).getByText('Schlüssel SHA256:demo')).toBeTruthy();
    expect(within(r).getByTestId('fw-sha').textContent).toContain('abababababab…ababab');
    expect(within(r).getByTestId('fw-default-for').textContent).toBe('Standard für SW-DL4G');
    const q = calls.callsOf('queryFirmwares')[0]!;
    expect([q.get('origin'), q.get('page'), q.get('pagesize')]).toEqual(['0', '0', '10']);
    expect(await screen.findByTestId('fw-keys')).toBeTruthy();
    expect(screen.getByTestId('fw-upload')).toBeTruthy();
    expect(within(screen.getByTestId('fw-defaults')).getByText('SW-DL4G')).toBeTruthy();
  }, 90_000);

  it('asks before deleting and shows the refusal of a default firmware in the user language', async () => {
    await i18n.changeLanguage('en_US');
    const refusal = i18n.t('special.firmwareIsDefault', { ns: 'errors' });
    const calls = library((action) => (action === 'delFirmware' ? { err: 8, msg: refusal } : undefined));
    renderPage('manager');
    fireEvent.click(await screen.findByTestId('fw-delete', {}, { timeout: 10_000 }));
    expect(calls.count('delFirmware')).toBe(0);
    fireEvent.click(await screen.findByTestId('fw-delete-ok'));
    expect(await screen.findByText('The firmware is a default firmware: clear the default first')).toBeTruthy();
    expect(calls.callsOf('delFirmware')[0]!.get('firmware')).toBe('0123456789abcdef');
  }, 90_000);

  it('shows no write buttons and no signing keys to an account the server refuses the keys (11)', async () => {
    await i18n.changeLanguage('en_US');
    signInAs(2);
    library(undefined, 11);
    renderPage('manager');
    await screen.findByTestId('fw-row', {}, { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByTestId('fw-keys')).toBeNull());
    expect(screen.queryByTestId('fw-upload')).toBeNull();
    expect(screen.queryByTestId('fw-delete')).toBeNull();
    expect(screen.getByTestId('fw-download')).toBeTruthy();
  }, 90_000);
});

describe('upgrade management firmware page', () => {
  it('lists origin 1 and refuses a file over 1 MB before sending anything', async () => {
    await i18n.changeLanguage('en_US');
    const calls = library();
    renderPage('upg');
    fireEvent.click(await screen.findByTestId('fw-upload', {}, { timeout: 10_000 }));
    expect(calls.callsOf('queryFirmwares')[0]!.get('origin')).toBe('1');
    const input = (await screen.findByTestId('fw-upload-form')).querySelector('input[type=file]')!;
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'big.bin');
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('The firmware file cannot exceed 1 MB')).toBeTruthy();
    fireEvent.click(screen.getByTestId('fw-upload-ok'));
    expect(await screen.findByText('Please choose a firmware file')).toBeTruthy();
    expect(calls.count('uploadFirmware')).toBe(0);
  }, 90_000);
});
