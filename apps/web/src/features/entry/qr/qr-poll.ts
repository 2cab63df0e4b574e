/**
 * QR sign-in polling (spec §4 "QR login"): every 3 s `qrLogin`; 6 stops, 1033 waits, 1040
 * scanned (waits for the confirmation), 0 signs in (stop, save auth), anything else stops.
 */
import { ApiCallError, QR_KEY_PATTERN, QR_POLL_MS, type AuthDat } from '@sunwatch/protocol';

export type QrState =
  | { kind: 'waiting' }
  | { kind: 'scanned' }
  | { kind: 'done'; dat: AuthDat }
  | { kind: 'failed'; error: unknown };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random 32-character key (crypto-backed). */
export function newQrKey(random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))): string {
  const key = [...random(32)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  if (!QR_KEY_PATTERN.test(key)) throw new Error('bad QR key');
  return key;
}

/** The state a poll answer leads to; `undefined` error = success. */
export function stateOf(result: { dat: AuthDat } | { error: unknown }): QrState {
  if ('dat' in result) return { kind: 'done', dat: result.dat };
  const e = result.error;
  if (e instanceof ApiCallError && e.err === 1033) return { kind: 'waiting' };
  if (e instanceof ApiCallError && e.err === 1040) return { kind: 'scanned' };
  return { kind: 'failed', error: e };
}

/** Polls until done or failed; returns a stop function (switching face stops it). */
export function pollQr(
  key: string,
  call: (key: string) => Promise<AuthDat>,
  onState: (s: QrState) => void,
  every = QR_POLL_MS,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    let state: QrState;
    try {
      state = stateOf({ dat: await call(key) });
    } catch (error) {
      state = stateOf({ error });
    }
    if (stopped) return;
    onState(state);
    if (state.kind === 'waiting' || state.kind === 'scanned') timer = setTimeout(() => void tick(), every);
  };
  void tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
