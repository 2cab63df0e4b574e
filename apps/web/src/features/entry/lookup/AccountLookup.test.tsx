import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiCallError, type RetrieveUsrDat } from '@sunwatch/protocol';
import { loadLanguage } from '../../../i18n';
import { AccountLookup } from './AccountLookup';

describe('account lookup face', () => {
  beforeAll(async () => {
    await loadLanguage('en_US');
  });
  afterEach(cleanup);

  it('checks the serial, shows 257 as the serial-number error, shows the masked account, one request at a time', async () => {
    let resolve: (d: RetrieveUsrDat) => void = () => undefined;
    const lookup = vi.fn((pn: string) =>
      pn === 'W1' ? Promise.reject(new ApiCallError(257, 'ERR')) : new Promise<RetrieveUsrDat>((r) => (resolve = r)),
    );
    render(<AccountLookup onBack={() => undefined} lookup={lookup} />);
    const input = screen.getByTestId('lookup-serial');
    fireEvent.change(input, { target: { value: 'sw1' } });
    fireEvent.click(screen.getByTestId('lookup-submit'));
    expect(lookup).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: 'W1' } });
    fireEvent.click(screen.getByTestId('lookup-submit'));
    await waitFor(() => expect(screen.getByTestId('lookup-error').textContent).toMatch(/serial number/i));
    fireEvent.change(input, { target: { value: 'W2' } });
    fireEvent.click(screen.getByTestId('lookup-submit'));
    fireEvent.click(screen.getByTestId('lookup-submit'));
    expect(lookup).toHaveBeenCalledTimes(2);
    resolve({ usr: 'o***a', email: 'a***@example.com', mobile: '' });
    await waitFor(() => expect(screen.getByTestId('lookup-usr').textContent).toBe('o***a'));
  });

  it('the field-error row keeps its height when a fixed value clears the message, so the button does not move', async () => {
    // jsdom has no layout: a row with a message is two lines (44 px) tall, an empty one 24 px
    const height = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('sw-field-error') ? (this.textContent ? 44 : 24) : 0;
    });
    try {
      const lookup = vi.fn(() => Promise.resolve({ usr: 'o***a', email: '', mobile: '' }));
      render(<AccountLookup onBack={() => undefined} lookup={lookup} />);
      const input = screen.getByTestId('lookup-serial');
      const row = screen.getByTestId('lookup-field-error');
      fireEvent.change(input, { target: { value: 'bad serial' } });
      fireEvent.blur(input);
      await waitFor(() => expect(row.textContent).not.toBe(''));
      expect(row.style.minHeight).toBe('44px');
      fireEvent.change(input, { target: { value: 'W123' } });
      fireEvent.blur(input);
      await waitFor(() => expect(row.textContent).toBe(''));
      expect(row.getAttribute('role')).toBeNull();
      expect(row.style.minHeight).toBe('44px'); // still two lines tall: nothing below moved
      fireEvent.click(screen.getByTestId('lookup-submit'));
      await waitFor(() => expect(lookup).toHaveBeenCalledWith('W123'));
    } finally {
      height.mockRestore();
    }
  });
});
