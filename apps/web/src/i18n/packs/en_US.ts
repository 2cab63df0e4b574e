/** Every text of en_US in one chunk (`lang-en_US`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/en_US/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/en_US/{errors,rules}.json', { eager: true, import: 'default' }),
);
