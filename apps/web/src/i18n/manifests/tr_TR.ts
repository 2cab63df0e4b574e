// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-tr_TR).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/tr_TR/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/tr_TR/{errors,rules}.json', {
    import: 'default',
  }),
};
