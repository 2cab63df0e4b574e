/**
 * Every text file of it_IT, in one chunk (`lang-it_IT`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/it_IT/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/it_IT/{errors,rules}.json', { eager: true, import: 'default' }),
};
