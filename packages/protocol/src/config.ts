/** Company keys every Sunwatch installation accepts unless configured otherwise (wire-protocol.md §2). */
export const DEFAULT_COMPANY_KEYS = ['bnrl_frRFjEz8Mkn', '0123456789ABCDEF'] as const;
/** The key Sunwatch's own web app sends. */
export const WEB_COMPANY_KEY = 'bnrl_frRFjEz8Mkn';
/** Token lifetime in seconds (login `expire`). */
export const TOKEN_EXPIRE_SECONDS = 604800;
/** Remember-me lifetime (spec §9). */
export const REMEMBER_EXPIRE_SECONDS = 604800;
/** Default lifetime of the encrypted session cookies (spec §9). */
export const COOKIE_LIFETIME_SECONDS = 31536000;
