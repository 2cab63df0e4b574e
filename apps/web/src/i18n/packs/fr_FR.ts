/**
 * Every text file of fr_FR, in one chunk (`lang-fr_FR`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/fr_FR/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/fr_FR/{errors,rules}.json', { eager: true, import: 'default' }),
};
