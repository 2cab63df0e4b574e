/** Every text of it_IT in one chunk (`lang-it_IT`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/it_IT/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/it_IT/{errors,rules}.json', { eager: true, import: 'default' }),
);
