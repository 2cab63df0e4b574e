/**
 * Every text file of en_US, in one chunk (`lang-en_US`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/en_US/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/en_US/{errors,rules}.json', { eager: true, import: 'default' }),
};
