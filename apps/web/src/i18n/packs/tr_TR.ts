/**
 * Every text file of tr_TR, in one chunk (`lang-tr_TR`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/tr_TR/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/tr_TR/{errors,rules}.json', { eager: true, import: 'default' }),
};
