// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-nl_NL).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/nl_NL/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/nl_NL/{errors,rules}.json', {
    import: 'default',
  }),
};
