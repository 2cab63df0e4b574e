/**
 * Every text file of uz_UZ, in one chunk (`lang-uz_UZ`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/uz_UZ/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/uz_UZ/{errors,rules}.json', { eager: true, import: 'default' }),
};
