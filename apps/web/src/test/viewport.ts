import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A viewport of `width` px for matchMedia's max-width/min-width queries (jsdom has no layout).
 * Returns `resize`: a new width, told to every listener as a browser would.
 */
export function stubViewport(width: number): (next: number) => void {
  let current = width;
  const listeners = new Set<() => void>();
  const matches = (query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    return (!max || current <= Number(max[1])) && (!min || current >= Number(min[1]));
  };
  vi.stubGlobal(
    'matchMedia',
    (query: string): MediaQueryList =>
      ({
        get matches() {
          return matches(query);
        },
        media: query,
        onchange: null,
        addListener: (l: () => void) => listeners.add(l),
        removeListener: (l: () => void) => listeners.delete(l),
        addEventListener: (_: string, l: () => void) => listeners.add(l),
        removeEventListener: (_: string, l: () => void) => listeners.delete(l),
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
  return (next: number) => {
    current = next;
    act(() => listeners.forEach((l) => l()));
  };
}
