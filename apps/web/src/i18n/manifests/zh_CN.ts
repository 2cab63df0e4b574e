// The text files of one language, loaded on demand (i18n/index.ts "manifests"; built into lang-zh_CN).
import type { Tree } from '../namespaces';

export default {
  ...import.meta.glob<Tree>('../locales/zh_CN/*.json', { import: 'default' }),
  ...import.meta.glob<Tree>('../../../../../packages/protocol/src/i18n/zh_CN/{errors,rules}.json', {
    import: 'default',
  }),
};
