/** Every text of pl_PL in one chunk (`lang-pl_PL`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/pl_PL/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/pl_PL/{errors,rules}.json', { eager: true, import: 'default' }),
);
