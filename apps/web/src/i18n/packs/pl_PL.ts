/**
 * Every text file of pl_PL, in one chunk (`lang-pl_PL`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/pl_PL/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/pl_PL/{errors,rules}.json', { eager: true, import: 'default' }),
};
