import crypto from 'node:crypto';
import {
  DEFAULT_LOCALE,
  SANDBOX_PROVIDER,
  SANDBOX_RMB_RATES,
  minorToDecimal,
  normalizeLocale,
  toRmbMinor,
} from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { CheckoutSession } from './payments.service.js';
import { SandboxProvider } from './sandbox-provider.js';
import { SANDBOX_TEXTS } from './sandbox-texts.js';

/** Where the web shows an order's outcome when the payer came without a return path. */
export const DEFAULT_RESULT_PATH = '/';

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The web order-result page of an attempt: its return path with ?kind=&orderNo=. */
export function resultUrl(s: CheckoutSession['payment']): string {
  const base = s.return_path || DEFAULT_RESULT_PATH;
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}kind=${encodeURIComponent(s.kind)}&orderNo=${encodeURIComponent(s.order_no)}`;
}

function sandboxPage(s: CheckoutSession, lang: string | undefined): string {
  const locale = normalizeLocale(lang) ?? normalizeLocale(s.payment.locale) ?? DEFAULT_LOCALE;
  const t = SANDBOX_TEXTS[locale];
  const p = s.payment;
  const amount = `${minorToDecimal(p.amount_minor, p.currency)} ${p.currency}`;
  const rate = SANDBOX_RMB_RATES[p.currency];
  const rmb =
    p.method === 'paypal' && rate !== undefined
      ? `<tr><th>${esc(t.rmb)}</th><td data-testid="sandbox-rmb">${esc(minorToDecimal(toRmbMinor(p.amount_minor, rate), 'CNY'))} CNY</td></tr>`
      : '';
  const method = t.methods[p.method as keyof typeof t.methods] ?? p.method;
  const action = `/pay/sandbox/${encodeURIComponent(p.session_id)}`;
  const buttons = s.payable
    ? `<form method="post" action="${esc(action)}"><button name="outcome" value="pay" class="pay" data-testid="sandbox-pay">${esc(t.pay)}</button><button name="outcome" value="fail" class="fail" data-testid="sandbox-fail">${esc(t.fail)}</button></form>`
    : `<p class="closed" data-testid="sandbox-closed">${esc(t.closed)}</p><p><a href="${esc(resultUrl(p))}">${esc(t.back)}</a></p>`;
  return `<!doctype html>
<html lang="${esc(locale.replace('_', '-'))}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(t.title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f3f6f4;color:#1f2a24}
main{max-width:420px;margin:24px auto;padding:20px;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:20px;margin:0 0 4px;color:#1b8a4b}.notice{color:#7a5b00;background:#fff7e0;padding:8px;border-radius:4px;font-size:14px}
table{width:100%;border-collapse:collapse;margin:16px 0}th,td{text-align:left;padding:6px 4px;border-bottom:1px solid #eee;font-size:15px;word-break:break-all}
th{color:#5c6b63;font-weight:500;width:45%}.amount{font-size:20px;font-weight:600}
form{display:flex;gap:12px;flex-wrap:wrap}button{flex:1;min-width:140px;padding:12px;font-size:16px;border-radius:6px;border:0;cursor:pointer}
.pay{background:#1b8a4b;color:#fff}.fail{background:#eee;color:#a12a2a}.closed{color:#a12a2a}
</style></head>
<body><main>
<h1>${esc(t.title)}</h1><p class="notice">${esc(t.notice)}</p>
<table>
<tr><th>${esc(t.order)}</th><td data-testid="sandbox-order">${esc(p.order_no)}</td></tr>
<tr><th>${esc(t.details)}</th><td>${esc(s.description)}</td></tr>
<tr><th>${esc(t.method)}</th><td>${esc(method)}</td></tr>
<tr><th>${esc(t.amount)}</th><td class="amount" data-testid="sandbox-amount">${esc(amount)}</td></tr>
${rmb}
</table>
${buttons}
</main></body></html>`;
}

/**
 * Issue 15 payment routes (docs/money/payments.md):
 * - GET /pay/sandbox/:session — the sandbox's hosted checkout page (plain HTML in the payer's
 *   language: order, amount, the PayPal amount in RMB, Pay / Fail);
 * - POST /pay/sandbox/:session — the payer's choice: the sandbox sends its signed webhook (through
 *   the webhook route below, signature and all) and redirects to the web order-result page;
 * - POST /pay/webhook/:provider — every provider's webhook: 401 when the signature does not
 *   verify (nothing changes), 404 for an unknown provider, else 200 with what it did.
 */
export function registerPaymentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const payments = ctx.services.payments;

  void app.register((scope, _opts, done) => {
    // Webhook signatures are over the exact bytes: keep the body as the raw string.
    scope.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_req, body, next) =>
      next(null, body),
    );
    scope.post<{ Params: { provider: string } }>('/pay/webhook/:provider', async (req, reply) => {
      const rawBody = typeof req.body === 'string' ? req.body : '';
      const outcome = await payments.webhook(req.params.provider, { headers: req.headers, rawBody });
      if (outcome === 'forged') {
        req.log.warn({ provider: req.params.provider }, 'payment webhook refused: bad signature');
        return reply.status(401).send({ received: false });
      }
      if (outcome === 'unknown-provider') return reply.status(404).send({ received: false });
      return reply.send({ received: true, outcome });
    });
    done();
  });

  app.get<{ Params: { session: string }; Querystring: { lang?: string } }>(
    '/pay/sandbox/:session',
    async (req, reply) => {
      const s = await payments.session(req.params.session);
      if (!s || s.payment.provider !== SANDBOX_PROVIDER) return reply.status(404).type('text/plain').send('Not found');
      const lang = req.query.lang ?? undefined;
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(sandboxPage(s, lang));
    },
  );

  app.post<{ Params: { session: string }; Body: { outcome?: string } }>('/pay/sandbox/:session', async (req, reply) => {
    const provider = payments.provider(SANDBOX_PROVIDER);
    const s = await payments.session(req.params.session);
    if (!(provider instanceof SandboxProvider) || !s) return reply.status(404).type('text/plain').send('Not found');
    if (s.payable) {
      const pay = req.body?.outcome === 'pay';
      const { headers, body } = provider.webhookFor({
        eventId: `evt_${crypto.randomBytes(12).toString('hex')}`,
        sessionId: s.payment.session_id,
        type: pay ? 'payment.succeeded' : 'payment.failed',
        providerRef: `SBX-${crypto.randomBytes(8).toString('hex').toUpperCase()}`,
        amountMinor: s.payment.amount_minor,
        currency: s.payment.currency,
        reason: pay ? '' : 'declined',
      });
      // Delivered like any provider's callback: through the webhook route and its signature check.
      const res = await app.inject({ method: 'POST', url: `/pay/webhook/${SANDBOX_PROVIDER}`, headers, payload: body });
      if (res.statusCode !== 200) req.log.error({ status: res.statusCode }, 'sandbox webhook not accepted');
    }
    return reply.redirect(resultUrl(s.payment), 303);
  });
}
