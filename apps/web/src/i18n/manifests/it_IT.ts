// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-it_IT).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/it_IT/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/it_IT/{errors,rules}.json', {
    import: 'default',
  }),
};
