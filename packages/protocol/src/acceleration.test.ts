import { describe, expect, it } from 'vitest';
import {
  ACCELERATION_PACKAGES,
  accelerationPrice,
  isAccelerationInterval,
  type AccelerationPriceInput,
} from './acceleration.js';

/** Spec §9: price by parameter count, frequency, load count and (history) storage time; integer minor units. */
describe('accelerationPrice', () => {
  const base: AccelerationPriceInput = { type: 'history', interval: 60, parameters: 20, loads: 1, storageMonths: 1 };

  it('prices the reference case: history, 60 s, one load, one block, one month (￥144 + ￥8)', () => {
    expect(accelerationPrice(base)).toEqual({
      blocks: 1,
      loads: 1,
      collectionMinor: 14400,
      storageMinor: 800,
      totalMinor: 15200,
      currency: 'CNY',
    });
  });

  it('energy flow has no storage part and ignores the storage months', () => {
    const p = accelerationPrice({ ...base, type: 'flow', storageMonths: 0 });
    expect(p).toMatchObject({ collectionMinor: 9600, storageMinor: 0, totalMinor: 9600 });
    expect(accelerationPrice({ ...base, type: 'flow', storageMonths: 7 }).totalMinor).toBe(9600);
  });

  it('the frequency factor: 30 s ×1.5, 10 s ×2.5', () => {
    expect(accelerationPrice({ ...base, interval: 30 }).collectionMinor).toBe(21600);
    expect(accelerationPrice({ ...base, interval: 10 }).collectionMinor).toBe(36000);
  });

  it('parameter blocks of 32: each further block +50 % of the collection part, and one more storage block', () => {
    expect(accelerationPrice({ ...base, parameters: 32 }).blocks).toBe(1);
    const p = accelerationPrice({ ...base, parameters: 33 });
    expect(p).toMatchObject({ blocks: 2, collectionMinor: 21600, storageMinor: 1600, totalMinor: 23200 });
    expect(accelerationPrice({ ...base, parameters: 0 }).blocks).toBe(1);
  });

  it('loads: each load beyond the first +25 %; 0 loads is priced as one', () => {
    expect(accelerationPrice({ ...base, loads: 3 }).collectionMinor).toBe(21600);
    expect(accelerationPrice({ ...base, loads: 0 })).toMatchObject({ loads: 1, collectionMinor: 14400 });
  });

  it('storage time scales the storage part', () => {
    expect(accelerationPrice({ ...base, storageMonths: 12 }).storageMinor).toBe(9600);
  });

  it('a hand-computed mixed case, rounded half up once', () => {
    // flow 9600 × 2.5 × (1 + 0.5·2) × (1 + 0.25·4) = 9600 × 2.5 × 2 × 2 = 96000
    expect(
      accelerationPrice({ type: 'flow', interval: 10, parameters: 65, loads: 5, storageMonths: 0 }).totalMinor,
    ).toBe(96000);
    // history 14400 × 1.5 × 1.5 × 1.25 = 40500; storage 800 × 6 × 2 = 9600
    expect(
      accelerationPrice({ type: 'history', interval: 30, parameters: 40, loads: 2, storageMonths: 6 }),
    ).toMatchObject({ collectionMinor: 40500, storageMinor: 9600, totalMinor: 50100 });
    // 9600 × 1.0 × 1.0 × 1.25^… : 2 loads flow 60 s = 12000 exactly; odd fen round half up
    expect(
      accelerationPrice({ type: 'flow', interval: 30, parameters: 1, loads: 2, storageMonths: 0 }).totalMinor,
    ).toBe(18000);
  });

  it('is an integer for every package, type and a range of inputs, and grows with each input', () => {
    for (const { interval } of ACCELERATION_PACKAGES)
      for (const type of ['flow', 'history'] as const)
        for (const loads of [0, 1, 7, 256])
          for (const parameters of [0, 31, 97, 20_000]) {
            const p = accelerationPrice({ type, interval, parameters, loads, storageMonths: 3 });
            expect(Number.isSafeInteger(p.totalMinor)).toBe(true);
            expect(p.totalMinor).toBeGreaterThan(0);
          }
    const f = (o: Partial<typeof base>) => accelerationPrice({ ...base, ...o }).totalMinor;
    expect(f({ interval: 30 })).toBeGreaterThan(f({ interval: 60 }));
    expect(f({ loads: 2 })).toBeGreaterThan(f({ loads: 1 }));
    expect(f({ parameters: 100 })).toBeGreaterThan(f({ parameters: 10 }));
    expect(f({ storageMonths: 3 })).toBeGreaterThan(f({ storageMonths: 1 }));
  });

  it('refuses what is not on sale or out of range', () => {
    expect(() => accelerationPrice({ ...base, interval: 45 as AccelerationPriceInput['interval'] })).toThrow(
      RangeError,
    );
    expect(() => accelerationPrice({ ...base, storageMonths: 2 })).toThrow(RangeError);
    expect(() => accelerationPrice({ ...base, loads: -1 })).toThrow(RangeError);
    expect(() => accelerationPrice({ ...base, loads: 257 })).toThrow(RangeError);
    expect(() => accelerationPrice({ ...base, parameters: 1.5 })).toThrow(RangeError);
    expect(isAccelerationInterval(300)).toBe(false);
    expect(isAccelerationInterval(10)).toBe(true);
  });
});
