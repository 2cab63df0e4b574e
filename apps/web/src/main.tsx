import './csp-safe';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './global.css';
import { currentLocale, loadLanguage } from './i18n';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { loadLocalePack } from './app/locale-packs';

/**
 * The texts of the chosen language (one chunk) and its antd/dayjs locale arrive before the first
 * render, in parallel with the router's first navigation; nothing of the other languages loads.
 */
const locale = currentLocale();
const ready = Promise.all([loadLanguage(locale), loadLocalePack(locale)]);
const router = createAppRouter();

function render(): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}

// A failed text fetch (offline, a deploy replaced the chunks) still renders: keys show until a
// reload, which beats a blank page.
ready.then(render, (err: unknown) => {
  console.warn('[i18n] could not load the texts of', locale, err);
  render();
});
