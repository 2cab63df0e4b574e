/**
 * Every text file of nl_NL, in one chunk (`lang-nl_NL`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/nl_NL/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/nl_NL/{errors,rules}.json', { eager: true, import: 'default' }),
};
