/** Values of the company-key actions (actions/company-keys.ts), importable without the catalogue. */

/** The client/platform a company key is issued for (the operator's key list filters by it). */
export const COMPANY_KEY_CLIENTS = ['web', 'android', 'ios', 'windows', 'macos', 'api'] as const;
export type CompanyKeyClient = (typeof COMPANY_KEY_CLIENTS)[number];

/** Longest values of a key entry's text fields (characters). */
export const COMPANY_KEY_TEXT_MAX = { company: 64, version: 32, contact: 64, description: 500, host: 253 } as const;

/** How many trailing characters of a key stay visible once it is stored (`••••Mkn1`). */
export const COMPANY_KEY_HINT_CHARS = 4;
