// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-uz_UZ).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/uz_UZ/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/uz_UZ/{errors,rules}.json', {
    import: 'default',
  }),
};
