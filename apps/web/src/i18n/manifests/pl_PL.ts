// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-pl_PL).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/pl_PL/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/pl_PL/{errors,rules}.json', {
    import: 'default',
  }),
};
