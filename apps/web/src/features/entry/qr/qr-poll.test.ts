import { ApiCallError, type AuthDat } from '@sunwatch/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newQrKey, pollQr, type QrState } from './qr-poll';

const dat = { token: 't', secret: 's', usr: 'owner_ben', role: 0 } as unknown as AuthDat;
const err = (code: number) => new ApiCallError(code, `E${code}`);

describe('QR sign-in polling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('makes 32-character keys of letters and digits', () => {
    const a = newQrKey();
    expect(a).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(newQrKey()).not.toBe(a);
  });

  it('polls every 3 s through 1033 and 1040 and stops on 0', async () => {
    const answers: Array<AuthDat | ApiCallError> = [err(1033), err(1040), dat];
    const call = vi.fn(() => {
      const a = answers.shift()!;
      return a instanceof ApiCallError ? Promise.reject(a) : Promise.resolve(a);
    });
    const states: QrState['kind'][] = [];
    pollQr('k', call, (s) => states.push(s.kind));
    await vi.advanceTimersByTimeAsync(0);
    expect(states).toEqual(['waiting']);
    await vi.advanceTimersByTimeAsync(2999);
    expect(call).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(states).toEqual(['waiting', 'scanned']);
    await vi.advanceTimersByTimeAsync(3000);
    expect(states).toEqual(['waiting', 'scanned', 'done']);
    await vi.advanceTimersByTimeAsync(9000);
    expect(call).toHaveBeenCalledTimes(3);
  });

  it('stops on 6 or any other error, and when stopped', async () => {
    for (const code of [6, 1041]) {
      const call = vi.fn(() => Promise.reject(err(code)));
      const states: QrState['kind'][] = [];
      pollQr('k', call, (s) => states.push(s.kind));
      await vi.advanceTimersByTimeAsync(10_000);
      expect(states).toEqual(['failed']);
      expect(call).toHaveBeenCalledTimes(1);
    }
    const call = vi.fn(() => Promise.reject(err(1033)));
    const stop = pollQr('k', call, () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(call).toHaveBeenCalledTimes(1);
  });
});
