/** Every text of de_DE in one chunk (`lang-de_DE`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/de_DE/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/de_DE/{errors,rules}.json', { eager: true, import: 'default' }),
);
