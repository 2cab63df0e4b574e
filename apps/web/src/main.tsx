import './csp-safe';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './global.css';
import { currentLocale, loadCoreTexts, loadLanguage } from './i18n';
import { RootProviders } from './app/root-providers';
import { createAppRouter } from './app/router';
import { baseClient } from './app/api';
import { installWebReporter, reportBoundaryError } from './app/web-errors/install';

/**
 * The core texts of the chosen language (one chunk) arrive before the first render, in parallel
 * with the router's first navigation; a page's own namespaces arrive with its chunks (the build's
 * chunk preludes, i18n/namespaces.ts). The dev server has no preludes: it loads the whole language.
 * Nothing of the other languages loads. antd, its providers and
 * the antd/dayjs locale pack load with the first antd page (router.tsx `AntdOutlet`), not here.
 */
const locale = currentLocale();
const ready = import.meta.env.DEV ? loadLanguage(locale) : loadCoreTexts(locale);
const router = createAppRouter();
// Issue 16: the web's errors and slow pages go to the platform's own collector (docs/operations.md).
installWebReporter(router, baseClient);

function render(): void {
  createRoot(document.getElementById('root')!, {
    onCaughtError: (error) => reportBoundaryError(error),
    onUncaughtError: (error) => reportBoundaryError(error),
  }).render(
    <StrictMode>
      <RootProviders>
        <RouterProvider router={router} />
      </RootProviders>
    </StrictMode>,
  );
}

// A failed text fetch (offline, a deploy replaced the chunks) still renders: keys show until a
// reload, which beats a blank page.
ready.then(render, (err: unknown) => {
  console.warn('[i18n] could not load the texts of', locale, err);
  render();
});
