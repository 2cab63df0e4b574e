import './csp-safe';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './global.css';
import { currentLocale, loadLanguage } from './i18n';
import { RootProviders } from './app/root-providers';
import { createAppRouter } from './app/router';

/**
 * The texts of the chosen language (one chunk) arrive before the first render, in parallel with
 * the router's first navigation; nothing of the other languages loads. antd, its providers and
 * the antd/dayjs locale pack load with the first antd page (router.tsx `AntdOutlet`), not here.
 */
const locale = currentLocale();
const ready = loadLanguage(locale);
const router = createAppRouter();

function render(): void {
  createRoot(document.getElementById('root')!).render(
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
