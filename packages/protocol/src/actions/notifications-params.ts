/** Constants of the notification actions (notifications.ts), kept apart so the catalogue holds actions only. */

/** Alarm types a subscription can name (ALARM_LEVEL): 0 warning, 1 error, 2 fault, 3 offline. */
export const EMAIL_PUSH_ALARM_LEVELS = [0, 1, 2, 3] as const;
/** Report types a subscription can name (spec §3). */
export const EMAIL_PUSH_REPORT_TYPES = ['daily', 'monthly', 'yearly'] as const;
export type EmailPushReportType = (typeof EMAIL_PUSH_REPORT_TYPES)[number];
/** Subscriptions per account. */
export const EMAIL_PUSH_MAX_PER_ACCOUNT = 20;
/** Plants per subscription. */
export const EMAIL_PUSH_MAX_PLANTS = 500;

/**
 * States of a queued mail: `queued` (waiting for its next attempt), `sending` (claimed by a
 * sender), `sent` (the SMTP server accepted it), `failed` (given up: permanent SMTP refusal or
 * too many attempts), `outbox` (no SMTP_URL configured: kept for the operator to read).
 */
export const MAIL_STATES = ['queued', 'sending', 'sent', 'failed', 'outbox'] as const;
export type MailState = (typeof MAIL_STATES)[number];

