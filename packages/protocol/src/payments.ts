/**
 * Payments (issue 15, "Payments behind a provider interface"): the kinds of order that can be paid,
 * the states of one payment attempt (a checkout session), and the payment providers. The server's
 * modules/payments drives them; docs/money/payments.md describes the flow.
 */

/** Kinds of order that can be paid: a flow-card recharge, an acceleration purchase. */
export const PAYMENT_KINDS = ['recharge', 'acceleration'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export function isPaymentKind(s: string): s is PaymentKind {
  return (PAYMENT_KINDS as readonly string[]).includes(s);
}

/**
 * States of one payment attempt (a checkout session at a provider):
 * - `pending`: the hosted checkout page is open, nothing confirmed yet;
 * - `succeeded`: the provider confirmed the payment (signed webhook) and the order was moved on;
 * - `failed`: the provider reported a failed payment;
 * - `unapplied`: the provider confirmed a payment the order could no longer take (already paid by
 *   another attempt, finished): the money is held for a person to return (refunds are not automatic).
 */
export const PAYMENT_STATES = ['pending', 'succeeded', 'failed', 'unapplied'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** The built-in provider: a hosted checkout page on this server, for tests and demos. */
export const SANDBOX_PROVIDER = 'sandbox';
/** Providers known by id; real ones are added by configuration (docs/money/payments.md). */
export const BUILTIN_PAYMENT_PROVIDERS = [SANDBOX_PROVIDER] as const;
export type PaymentProviderId = string;

/** Webhook event types a provider sends (normalised by its verifyWebhook). */
export const PAYMENT_EVENT_TYPES = ['payment.succeeded', 'payment.failed'] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** An order number: letters and digits (RC… recharge, AC… acceleration). */
export const ORDER_NO_PATTERN = /^[A-Za-z0-9-]{4,32}$/;

export function isPaymentEventType(s: string): s is PaymentEventType {
  return (PAYMENT_EVENT_TYPES as readonly string[]).includes(s);
}
