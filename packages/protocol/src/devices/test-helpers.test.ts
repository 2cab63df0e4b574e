import { describe, expect, it, vi } from 'vitest';
import { REQUIRE_REFERENCE, referenceAvailable } from './test-helpers.js';

describe('referenceAvailable: the vendor-reference comparisons cannot skip silently when required', () => {
  it('runs when the folder exists', () => {
    expect(referenceAvailable('/ref', false, () => true)).toBe(true);
    expect(referenceAvailable('/ref', true, () => true)).toBe(true);
  });

  it('skips with a loud warning when the folder is missing and not required', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(referenceAvailable('/missing', false, () => false)).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('SKIPPED'));
    } finally {
      warn.mockRestore();
    }
  });

  it('throws when the folder is missing and SUNWATCH_REQUIRE_REFERENCE=1', () => {
    expect(() => referenceAvailable('/missing', true, () => false)).toThrow(/SUNWATCH_REQUIRE_REFERENCE=1.*\/missing/);
  });

  it('REQUIRE_REFERENCE follows the environment variable', () => {
    expect(REQUIRE_REFERENCE).toBe(process.env.SUNWATCH_REQUIRE_REFERENCE === '1');
  });
});
