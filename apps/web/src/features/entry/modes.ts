/** The five modes of the entry page (spec §2); switching them does not change the route. */
export const ENTRY_MODES = ['login', 'signup', 'retrieve', 'retrieveUser', 'qr'] as const;
export type EntryMode = (typeof ENTRY_MODES)[number];
