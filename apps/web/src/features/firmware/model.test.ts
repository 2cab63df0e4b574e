import { describe, expect, it } from 'vitest';
import { fileProblem, shortHash } from './model';

describe('firmware file checks', () => {
  it('accepts .bin/.hex/.s19 within the page limit and names the broken rule otherwise', () => {
    expect(fileProblem({ name: 'a.BIN', size: 8 * 1024 * 1024 }, 0)).toBeUndefined();
    expect(fileProblem({ name: 'a.s19', size: 1024 * 1024 }, 1)).toBeUndefined();
    expect(fileProblem({ name: 'a.hex', size: 1024 * 1024 + 1 }, 1)).toEqual({
      key: 'rules.firmware.sizeUpgrade',
      max: 1,
    });
    expect(fileProblem({ name: 'a.bin', size: 8 * 1024 * 1024 + 1 }, 0)).toEqual({
      key: 'rules.firmware.sizeManager',
      max: 8,
    });
    expect(fileProblem({ name: 'a.txt', size: 1 }, 0)).toEqual({ key: 'rules.firmware.type' });
    expect(shortHash('ab'.repeat(32))).toBe('abababababab…ababab');
  });
});
