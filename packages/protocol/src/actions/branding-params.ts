/** Constants of the issue 12 branding actions (branding.ts holds only actions and types). */

/** `msgType` of a notice: 0 none, 1 banner-less information (ignored by the web), 2 dialog. */
export const NOTICE_MSG_TYPES = [0, 1, 2] as const;
export type NoticeMsgType = (typeof NOTICE_MSG_TYPES)[number];

/** Host names as the Host header and `appID` carry them (no port). */
export const HOST_NAME_RE = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/i;

