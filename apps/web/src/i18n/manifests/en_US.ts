// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-en_US).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/en_US/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/en_US/{errors,rules}.json', {
    import: 'default',
  }),
};
