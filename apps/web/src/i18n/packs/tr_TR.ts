/** Every text of tr_TR in one chunk (`lang-tr_TR`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/tr_TR/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/tr_TR/{errors,rules}.json', { eager: true, import: 'default' }),
);
