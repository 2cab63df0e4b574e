/** Shapes shared by the lazy loader (index.ts) and the eager test resources (resources.ts). */
export type Tree = { [key: string]: string | Tree };

/** The protocol package's namespaces the web app uses (`packages/protocol/src/i18n/<locale>/*.json`). */
export const PROTOCOL_NAMESPACES = ['errors', 'rules'] as const;

/** The texts of one language by namespace (i18n/packs/<locale>.ts). */
export type Pack = Record<string, Tree>;

/** A language pack from the eager globs of its text files, each named by its file (`…/<ns>.json`). */
export function packOf(...globs: Array<Record<string, unknown>>): Pack {
  const pack: Pack = {};
  for (const files of globs) {
    for (const [path, tree] of Object.entries(files)) {
      const m = /\/([^/]+)\.json$/.exec(path);
      if (m) pack[m[1]!] = tree as Tree;
    }
  }
  return pack;
}
