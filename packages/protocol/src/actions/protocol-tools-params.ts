/** Limits of the operator's protocol tools (issue 14; actions in protocol-tools.ts). */

/** Most characters of a pasted frame (the call is a signed GET; its URL must stay under 16 KB). */
export const RAW_FRAME_MAX_CHARS = 4000;
/** Longest time range of `webQueryDeviceRawData` (spec §9: datalogger logs at most 3 days). */
export const RAW_HISTORY_MAX_MS = 3 * 86_400_000;
