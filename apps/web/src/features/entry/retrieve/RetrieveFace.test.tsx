import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiCallError } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { baseClient } from '../../../app/api';
import { RetrieveFace } from './RetrieveFace';

// the face calls the app's client: a spy on the shared object (see SignupFace.test.tsx)
const call = vi.fn();

describe('RetrieveFace', () => {
  let spy: { mockRestore(): void } | undefined;
  beforeAll(async () => {
    await i18n.changeLanguage('en_US');
    spy = vi.spyOn(baseClient, 'call').mockImplementation(((...a: unknown[]) => call(...a)) as typeof baseClient.call);
  });
  afterAll(() => spy?.mockRestore());
  afterEach(() => {
    cleanup();
    call.mockReset();
    sessionStorage.clear();
  });

  const type = (name: string, v: string) => fireEvent.change(screen.getByTestId(`ss-${name}`), { target: { value: v } });
  /** Answers the picture code and the step-0 check (515: the account has the e-mail bound). */
  const answer = () =>
    call.mockImplementation((action: string, params: Record<string, string>) => {
      if (action === 'getPictureCode') return Promise.resolve({ key: 'k1', img: 'data:image/svg+xml;base64,PHN2Zy8+' });
      if (action === 'sendSmsCode' && !params.email) return Promise.reject(new ApiCallError(515, 'ERR', 'bound'));
      return Promise.resolve(undefined);
    });
  const toStep1 = async () => {
    render(<RetrieveFace onBack={() => undefined} />);
    await waitFor(() => expect(screen.getByTestId('ss-picture').querySelector('img')).not.toBeNull());
    type('usr', 'owner_anna');
    type('verifycode', 'AB12');
    fireEvent.click(screen.getByTestId('ss-next'));
    await waitFor(() => expect(screen.getByTestId('entry-mode-retrieve').dataset.step).toBe('1'));
  };

  it('the reset countdown survives leaving the face and coming back, for the address the code went to', async () => {
    answer();
    await toStep1();
    type('contact', 'anna@example.com');
    fireEvent.click(screen.getByTestId('ss-send-code'));
    await waitFor(() => expect(screen.getByTestId('ss-send-code').textContent).toMatch(/Resend in (300|299) s/));
    expect(call).toHaveBeenCalledWith('sendSmsCode', expect.objectContaining({ email: 'anna@example.com' }));
    cleanup();
    await toStep1();
    type('contact', 'ANNA@example.com');
    expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('ss-send-code').textContent).toMatch(/Resend in (300|299|298) s/);
    type('contact', 'other@example.com');
    expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(false);
  });

  it('field errors sit in rows that keep their height (the button below does not move when they clear)', async () => {
    const height = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('sw-field-error') ? (this.textContent ? 44 : 24) : 0;
    });
    try {
      answer();
      render(<RetrieveFace onBack={() => undefined} />);
      fireEvent.click(screen.getByTestId('ss-next'));
      const row = screen.getByTestId('ss-usr-error');
      await waitFor(() => expect(row.textContent).not.toBe(''));
      expect(row.style.minHeight).toBe('44px');
      await waitFor(() => expect(screen.getByTestId('ss-picture').querySelector('img')).not.toBeNull());
      type('usr', 'owner_anna');
      type('verifycode', 'AB12');
      fireEvent.click(screen.getByTestId('ss-next'));
      await waitFor(() => expect(screen.getByTestId('entry-mode-retrieve').dataset.step).toBe('1'));
      expect(screen.getByTestId('ss-contact-error').textContent).toBe('');
    } finally {
      height.mockRestore();
    }
  });
});
