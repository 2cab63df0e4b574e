/** Every text of id_ID in one chunk (`lang-id_ID`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/id_ID/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/id_ID/{errors,rules}.json', { eager: true, import: 'default' }),
);
