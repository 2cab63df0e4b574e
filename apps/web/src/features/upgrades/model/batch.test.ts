import { describe, expect, it } from 'vitest';
import type { UpgradeBatchProgressDat } from '@sunwatch/protocol';
import { batchFigures, batchPollInterval } from './batch';

const base: UpgradeBatchProgressDat = {
  batch: 7,
  state: 'materialising',
  target: 0,
  firmware: { code: 'c', name: 'n', version: '2' },
  usr: 'maker',
  ts: '2026-11-28 15:00:00',
  total: 100_000,
  materialised: 25_000,
  refused: 10,
  started: 40,
  waiting: 24_900,
  done: 40,
  failed: 5,
  cancelled: 5,
  error: '',
};

describe('batchFigures', () => {
  it('a batch still materialising: created share, finished share, active', () => {
    expect(batchFigures(base)).toEqual({ createdPct: 25, finished: 60, finishedPct: 0, active: true });
    expect(batchPollInterval(base)).toBe(2000);
  });
  it('a settled batch stops polling; ready means every task exists', () => {
    const d = {
      ...base,
      state: 'ready',
      total: 4,
      materialised: 4,
      started: 0,
      waiting: 0,
      done: 2,
      failed: 1,
      cancelled: 0,
      refused: 1,
    };
    expect(batchFigures(d)).toEqual({ createdPct: 100, finished: 4, finishedPct: 100, active: false });
    expect(batchPollInterval(d)).toBe(false);
    expect(batchPollInterval(undefined)).toBe(2000);
  });
  it('a batch whose fleet grew while materialising never shows more than 100 %', () => {
    expect(batchFigures({ ...base, total: 10, materialised: 12 }).createdPct).toBe(100);
  });
});
