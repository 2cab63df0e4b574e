import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { loadLanguage } from '../../../i18n';
import { qrDataUrl } from '../qr/qr-image';
import { DEFAULT_BRANDING } from './branding-api';
import { AppDownload } from './EntryBranding';

describe('app-download prompt', () => {
  beforeAll(async () => {
    await loadLanguage('en_US');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows a QR image per app link: the operator image where configured, else one drawn from the link', async () => {
    // queryDomainApp answers: the operator gave an iOS image only
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          new Response(
            String(url).includes('action=queryDomainApp')
              ? JSON.stringify({
                  err: 0,
                  desc: 'ERR_NONE',
                  dat: { ios: 'https://apps.example/ios', android: 'https://apps.example/android', iosQr: '/branding/127.0.0.1/ios.png', androidQr: '' },
                })
              : '{"err":9,"desc":"ERR_NOT_SUPPORTED"}',
          ),
        ),
      ),
    );
    render(<AppDownload brand={{ ...DEFAULT_BRANDING, app: true }} />);
    fireEvent.click(await screen.findByTestId('app-download'));
    await waitFor(() => expect(screen.getAllByTestId('app-qr')).toHaveLength(2));
    const [ios, android] = screen.getAllByTestId('app-qr') as HTMLImageElement[];
    expect(ios!.getAttribute('src')).toBe('/branding/127.0.0.1/ios.png');
    expect(ios!.dataset.qrSource).toBe('operator');
    expect(android!.dataset.qrSource).toBe('generated');
    expect(android!.getAttribute('src')).toBe(await qrDataUrl('https://apps.example/android', 128));
    expect(android!.alt).toMatch(/android/i);

    // the operator's image fails to load: the code is drawn from the iOS link instead
    fireEvent.error(ios!);
    await waitFor(() => expect(screen.getAllByTestId('app-qr').map((i) => i.dataset.qrSource)).toEqual(['generated', 'generated']));
    expect(screen.getAllByTestId('app-qr')[0]!.getAttribute('src')).toBe(await qrDataUrl('https://apps.example/ios', 128));
  });
});
