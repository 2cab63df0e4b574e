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
});
