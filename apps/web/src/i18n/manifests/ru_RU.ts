// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-ru_RU).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/ru_RU/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/ru_RU/{errors,rules}.json', {
    import: 'default',
  }),
};
