import { describe, expect, it } from 'vitest';
import { dismissNotice, shouldShowNotice } from './notice-dismissal';

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: () => null,
    get length() {
      return m.size;
    },
  };
}

describe('notice dialog (spec §7: a dialog when msgType is 2)', () => {
  const n = { id: 3, msgType: 2 as const, title: 't', content: 'c', uts: 100 };
  it('shows a msgType 2 notice until dismissed in this session; an edited notice shows again', () => {
    const s = memory();
    expect(shouldShowNotice(n, s)).toBe(true);
    dismissNotice(n, s);
    expect(shouldShowNotice(n, s)).toBe(false);
    expect(shouldShowNotice({ ...n, uts: 101 }, s)).toBe(true);
  });
  it('never shows other message types or no notice', () => {
    expect(shouldShowNotice({ ...n, msgType: 1 }, memory())).toBe(false);
    expect(shouldShowNotice(undefined, memory())).toBe(false);
  });
});
