/**
 * Every text file of id_ID, in one chunk (`lang-id_ID`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/id_ID/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/id_ID/{errors,rules}.json', { eager: true, import: 'default' }),
};
