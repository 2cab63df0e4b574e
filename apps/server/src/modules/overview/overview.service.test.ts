import { describe, expect, it } from 'vitest';
import { mostPlantsCurrency } from './overview.service.js';

describe('fleet overview currency without income figures', () => {
  it('is the currency most visible plants use', () => {
    expect(
      mostPlantsCurrency([
        { currency: 'ZAR', plants: 1 },
        { currency: 'EUR', plants: '2' },
      ]),
    ).toBe('EUR');
    expect(mostPlantsCurrency([{ currency: 'ZAR', plants: 1 }])).toBe('ZAR');
  });
  it('ignores plants without a currency and breaks ties by currency order', () => {
    expect(
      mostPlantsCurrency([
        { currency: null, plants: 9 },
        { currency: 'ZAR', plants: 2 },
        { currency: 'EUR', plants: 2 },
      ]),
    ).toBe('EUR');
    expect(mostPlantsCurrency([])).toBe('');
  });
});
