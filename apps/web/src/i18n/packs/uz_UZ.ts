/** Every text of uz_UZ in one chunk (`lang-uz_UZ`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/uz_UZ/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/uz_UZ/{errors,rules}.json', { eager: true, import: 'default' }),
);
