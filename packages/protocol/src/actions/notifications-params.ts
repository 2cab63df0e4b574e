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
 * States of a queued mail: `queued` (waiting for its next attempt), `claimed` (taken by a sender,
 * nothing handed to SMTP yet), `sending` (the sender started the SMTP transaction), `sent` (the
 * SMTP server accepted it), `failed` (given up: permanent SMTP refusal or too many attempts),
 * `unconfirmed` (it may or may not have been delivered: the connection dropped or timed out after
 * the message body was sent, or its sender vanished while `sending`; never resent automatically,
 * the operator's resendMail requeues it), `outbox` (no SMTP_URL configured: kept for the operator
 * to read).
 */
export const MAIL_STATES = ['queued', 'claimed', 'sending', 'sent', 'failed', 'unconfirmed', 'outbox'] as const;
/** States the operator's resendMail requeues. */
export const MAIL_RESENDABLE_STATES = ['unconfirmed', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

