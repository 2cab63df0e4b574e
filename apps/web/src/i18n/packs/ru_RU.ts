/**
 * Every text file of ru_RU, in one chunk (`lang-ru_RU`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/ru_RU/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/ru_RU/{errors,rules}.json', { eager: true, import: 'default' }),
};
