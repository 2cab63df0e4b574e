import crypto from 'node:crypto';
import { RECHARGE_PAYMENT_METHODS, SANDBOX_PROVIDER } from '@sunwatch/protocol';

/**
 * Payments configuration (docs/money/payments.md "Configuration"):
 * - PAYMENT_METHOD_PROVIDERS: `method=provider` pairs, comma-separated (default: every method →
 *   `sandbox`); a provider id must be a registered provider (PaymentsService.registerProvider);
 * - PAYMENT_SANDBOX_ENABLED (default true): serve the sandbox checkout at /pay/sandbox/…;
 * - PAYMENT_SANDBOX_SECRET: the HMAC secret of the sandbox's webhooks (default: a random one per
 *   process, which is enough for one instance; several instances must share one);
 * - PAYMENT_WINDOW_MINUTES (default 120): an unpaid order expires after it;
 * - RECHARGE_CREDIT_HOURS (default 24): a paid recharge not credited within this (plus its
 *   delay days) turns overdue.
 */
export interface PaymentsConfig {
  methodProviders: Record<string, string>;
  sandboxEnabled: boolean;
  sandboxSecret: string;
  paymentWindowMs: number;
  creditWindowMs: number;
  /** How often the expiry/overdue job runs. */
  jobEveryMs: number;
}

const int = (v: string | undefined, d: number) => {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isFinite(n) ? n : d;
};

export function loadPaymentsConfig(env: NodeJS.ProcessEnv): PaymentsConfig {
  const methodProviders: Record<string, string> = Object.fromEntries(
    RECHARGE_PAYMENT_METHODS.map((m) => [m, SANDBOX_PROVIDER]),
  );
  for (const pair of (env.PAYMENT_METHOD_PROVIDERS ?? '').split(',')) {
    const [m, p] = pair.split('=').map((s) => s.trim());
    if (m && p) methodProviders[m] = p;
  }
  return {
    methodProviders,
    sandboxEnabled: !/^(0|false|no|off)$/i.test(env.PAYMENT_SANDBOX_ENABLED?.trim() ?? ''),
    sandboxSecret: env.PAYMENT_SANDBOX_SECRET?.trim() || crypto.randomBytes(32).toString('hex'),
    paymentWindowMs: Math.max(1, int(env.PAYMENT_WINDOW_MINUTES, 120)) * 60_000,
    creditWindowMs: Math.max(1, int(env.RECHARGE_CREDIT_HOURS, 24)) * 3_600_000,
    jobEveryMs: Math.max(1000, int(env.PAYMENT_JOB_MS, 60_000)),
  };
}
