import crypto from 'node:crypto';
import { ApiError, RECHARGE_PAYMENT_METHODS, SANDBOX_PROVIDER, isPaymentEventType } from '@sunwatch/protocol';
import type { CheckoutRequest, PaymentProvider, WebhookEvent, WebhookRequest } from './provider.js';

/** The header carrying the sandbox's signature: `t=<epoch s>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** A signature older (or newer) than this is refused: a captured webhook cannot be replayed later. */
export const SANDBOX_TOLERANCE_MS = 5 * 60_000;

function hmac(secret: string, t: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

/** Signs a webhook body as the sandbox does: the header value. */
export function signSandboxWebhook(secret: string, body: string, at: number): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${hmac(secret, t, body)}`;
}

/** A webhook as the sandbox sends it (tests replay it to check duplicates). */
export function sandboxWebhook(
  secret: string,
  event: WebhookEvent,
  at: number,
): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({
    id: event.eventId,
    type: event.type,
    data: {
      session: event.sessionId,
      reference: event.providerRef,
      amount: event.amountMinor,
      currency: event.currency,
      reason: event.reason,
    },
  });
  return {
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(secret, body, at) },
    body,
  };
}

/**
 * The built-in provider: its checkout is a page on this server (/pay/sandbox/<session>,
 * payments.routes.ts) where the payer presses Pay or Fail; the page then sends a webhook signed
 * with PAYMENT_SANDBOX_SECRET to /pay/webhook/sandbox, exactly as a real provider would.
 */
export class SandboxProvider implements PaymentProvider {
  readonly id = SANDBOX_PROVIDER;
  readonly methods: readonly string[] = RECHARGE_PAYMENT_METHODS;

  constructor(
    private readonly secret: string,
    private readonly now: () => number,
  ) {}

  createCheckout(req: CheckoutRequest): Promise<{ payUrl: string }> {
    return Promise.resolve({ payUrl: `/pay/sandbox/${encodeURIComponent(req.sessionId)}` });
  }

  /** The event the payer's choice produces, signed (the sandbox page posts it to the webhook). */
  webhookFor(event: WebhookEvent): { headers: Record<string, string>; body: string } {
    return sandboxWebhook(this.secret, event, this.now());
  }

  verifyWebhook(req: WebhookRequest): WebhookEvent | undefined {
    const raw = req.headers[SANDBOX_SIGNATURE_HEADER];
    const header = Array.isArray(raw) ? raw[0] : raw;
    const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? '');
    if (!m) return undefined;
    const t = Number(m[1]);
    if (Math.abs(this.now() - t * 1000) > SANDBOX_TOLERANCE_MS) return undefined;
    const expected = Buffer.from(hmac(this.secret, t, req.rawBody), 'hex');
    const given = Buffer.from(m[2]!, 'hex');
    if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(req.rawBody);
    } catch {
      return undefined;
    }
    const b = body as { id?: unknown; type?: unknown; data?: Record<string, unknown> };
    const d = b.data ?? {};
    if (typeof b.id !== 'string' || typeof b.type !== 'string' || !isPaymentEventType(b.type)) return undefined;
    if (typeof d.session !== 'string' || typeof d.amount !== 'number' || !Number.isSafeInteger(d.amount))
      return undefined;
    return {
      eventId: b.id.slice(0, 128),
      sessionId: d.session,
      type: b.type,
      providerRef: typeof d.reference === 'string' ? d.reference.slice(0, 128) : '',
      amountMinor: d.amount,
      currency: typeof d.currency === 'string' ? d.currency : '',
      reason: typeof d.reason === 'string' ? d.reason.slice(0, 200) : '',
    };
  }

  refund(): Promise<never> {
    // Spec §9: payments are not refundable.
    return Promise.reject(new ApiError(8, 'refund'));
  }
}
