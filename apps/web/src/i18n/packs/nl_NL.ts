/** Every text of nl_NL in one chunk (`lang-nl_NL`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/nl_NL/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/nl_NL/{errors,rules}.json', { eager: true, import: 'default' }),
);
