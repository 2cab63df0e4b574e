/**
 * Issue 14, operator protocol pages (typeCode, protocolBinding, protocolChange): the value lists
 * the server checks and the web offers. docs/operator/protocol-admin.md.
 */

/** Communication methods a datalogger type code may name (stored as written, e.g. `4G`, `Wi-Fi`). */
export const COMM_METHODS = ['Wi-Fi', 'GPRS', '4G', 'NB-IoT', 'LoRa', 'Ethernet', 'RS485'] as const;
export type CommMethod = (typeof COMM_METHODS)[number];

/** What a devcode binding applies to: a datalogger type code, a PN prefix, or a PN range (from–to, inclusive). */
export const BINDING_SCOPES = ['type', 'prefix', 'range'] as const;
export type BindingScope = (typeof BINDING_SCOPES)[number];

/** Longest reason of a devcode change. */
export const DEVCODE_CHANGE_REASON_MAX = 255;
/** Longest type name / description / binding note. */
export const TYPE_NAME_MAX = 64;
export const TYPE_DESCRIPTION_MAX = 255;
