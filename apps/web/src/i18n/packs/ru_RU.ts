/** Every text of ru_RU in one chunk (`lang-ru_RU`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/ru_RU/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/ru_RU/{errors,rules}.json', { eager: true, import: 'default' }),
);
