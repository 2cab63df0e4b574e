// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-id_ID).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/id_ID/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/id_ID/{errors,rules}.json', {
    import: 'default',
  }),
};
