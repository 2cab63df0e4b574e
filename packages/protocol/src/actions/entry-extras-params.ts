/** Constants of the entry-page extras (issue 12), apart from the catalogue's action definitions. */
/** QR sign-in key: 32 characters of letters and digits, made by the polling browser (spec §9). */
export const QR_KEY_PATTERN = /^[A-Za-z0-9]{32}$/;
/** How long a QR key lives from its first poll (then 1041). */
export const QR_KEY_TTL_MS = 5 * 60_000;
/** The poll interval of the entry page's QR face (spec §4, §9). */
export const QR_POLL_MS = 3_000;
/** Path of the confirm page a QR code encodes (`?key=`). */
export const QR_CONFIRM_PATH = '/qr/confirm';
/** Experience codes: 8–32 letters and digits (issued upper case; compared case-insensitively). */
export const INV_CODE_PATTERN = /^[A-Za-z0-9]{8,32}$/;
/** Account lookups one client address may make per window (err 13 beyond). */
export const LOOKUP_LIMIT = { perWindow: 10, windowMs: 15 * 60_000 } as const;

