/**
 * Every text file of zh_CN, in one chunk (`lang-zh_CN`), loaded by `loadLanguage` (i18n/index.ts).
 * Imports nothing else: a shared import would pull this chunk into the entry.
 */
export default {
  ...import.meta.glob('../locales/zh_CN/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob('../../../../../packages/protocol/src/i18n/zh_CN/{errors,rules}.json', { eager: true, import: 'default' }),
};
