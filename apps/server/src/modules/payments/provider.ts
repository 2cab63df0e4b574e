import type { PaymentEventType, PaymentKind } from '@sunwatch/protocol';

/** What a provider needs to open a hosted checkout for one payment attempt. */
export interface CheckoutRequest {
  /** Our id of the attempt (payments.session_id): the provider echoes it in its webhooks. */
  sessionId: string;
  kind: PaymentKind;
  orderNo: string;
  amountMinor: number;
  currency: string;
  method: string;
  description: string;
  locale: string;
}

/** A webhook after verification, in the provider-neutral shape. */
export interface WebhookEvent {
  /** The provider's event id: a second delivery of the same id changes nothing. */
  eventId: string;
  sessionId: string;
  type: PaymentEventType;
  /** The provider's reference of the payment (its transaction id). */
  providerRef: string;
  /** What the provider says it took, minor units: must equal the attempt's amount. */
  amountMinor: number;
  currency: string;
  /** Why it failed (payment.failed). */
  reason: string;
}

export interface WebhookRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as received (signatures are over the bytes). */
  rawBody: string;
}

/**
 * A payment provider (docs/money/payments.md). The built-in `sandbox` runs the whole flow on this
 * server; a real provider (card acquirer, PayPal, a chat-app wallet) implements the same three
 * calls and is selected by configuration (PAYMENT_METHOD_PROVIDERS).
 */
export interface PaymentProvider {
  readonly id: string;
  /** Methods it can take (RECHARGE_PAYMENT_METHODS names). */
  readonly methods: readonly string[];
  /** Opens a checkout: the URL of the hosted page the payer is sent to. */
  createCheckout(req: CheckoutRequest): Promise<{ payUrl: string }>;
  /** The event of a genuine webhook, undefined for a forged, altered or stale one. */
  verifyWebhook(req: WebhookRequest): WebhookEvent | undefined;
  /** Payments are not refundable (spec §9): every provider refuses. */
  refund(providerRef: string, amountMinor: number): Promise<never>;
}
