/**
 * Every text file of de_DE, in one chunk (`lang-de_DE`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/de_DE/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/de_DE/{errors,rules}.json', { eager: true, import: 'default' }),
};
