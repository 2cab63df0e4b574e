/** Every text of zh_CN in one chunk (`lang-zh_CN`), loaded by `loadLanguage` (i18n/index.ts). */
import { packOf } from '../namespaces';

export default packOf(
  import.meta.glob('../locales/zh_CN/*.json', { eager: true, import: 'default' }),
  import.meta.glob('../../../../../packages/protocol/src/i18n/zh_CN/{errors,rules}.json', { eager: true, import: 'default' }),
);
