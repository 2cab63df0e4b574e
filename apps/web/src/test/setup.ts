import { beforeAll } from 'vitest';
import i18n from '../i18n';
import { resources } from '../i18n/resources';

// antd reads matchMedia (responsive grid, Sider breakpoints); jsdom has none.
if (typeof window !== 'undefined' && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

// antd's tables, tabs and charts observe their size; jsdom has no ResizeObserver (pages render
// without layout, so observing nothing is what jsdom can offer).
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

// Unit tests get every language synchronously (the app loads one on demand, i18n/index.ts).
for (const [locale, namespaces] of Object.entries(resources)) {
  for (const [ns, tree] of Object.entries(namespaces)) i18n.addResourceBundle(locale, ns, tree, true, true);
}

// Files share one i18n instance per worker (isolate: false): every file starts in English,
// whatever language the file before it left behind.
beforeAll(async () => {
  if (i18n.language !== 'en_US') await i18n.changeLanguage('en_US');
});
