/** Shapes shared by the lazy loader (index.ts) and the eager test resources (resources.ts). */
export type Tree = { [key: string]: string | Tree };

/** The protocol package's namespaces the web app uses (`packages/protocol/src/i18n/<locale>/*.json`). */
export const PROTOCOL_NAMESPACES = ['errors', 'rules'] as const;

/** Every text file of one language by its path (i18n/packs/<locale>.ts). */
export type Pack = Record<string, unknown>;
