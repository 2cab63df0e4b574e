// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-fr_FR).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/fr_FR/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/fr_FR/{errors,rules}.json', {
    import: 'default',
  }),
};
