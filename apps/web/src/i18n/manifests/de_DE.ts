// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-de_DE).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/de_DE/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/de_DE/{errors,rules}.json', {
    import: 'default',
  }),
};
