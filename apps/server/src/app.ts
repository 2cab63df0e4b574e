import cookie from '@fastify/cookie';
import { scheduleStrategyRollout } from './jobs/upgrade-strategies.job.js';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppConfig } from './config.js';
import type { AppContext } from './context.js';
import { createContext } from './create-context.js';
import { formBodyParser, registerActionEndpoint } from './http/action-endpoint.js';
import { errorEnvelope, pickLocale, toApiError } from './http/envelope.js';
import { registerSpa } from './http/spa.js';
import { registerExportRoutes } from './modules/devices/ops/export-routes.js';
import { registerReportRoutes } from './modules/reports/report-routes.js';
import { REPORT_MAIL_INTERVAL_MS } from './modules/reports/report-mails.js';
import { JobRunner } from './jobs/job-runner.js';

import { registerIngestRoutes } from './ingest/http-ingest.js';
import { handlers } from './modules/index.js';
import { registerPlantImageRoutes } from './modules/plants/plant-images.routes.js';
import { registerAvatarRoutes } from './modules/accounts/avatars.js';
import { registerSecurityHeaders } from './security/headers.js';
import { registerBrandingRoutes } from './modules/branding/branding.routes.js';
import { registerUpgRoutes } from './modules/firmware/upg-routes.js';
import { registerPaymentRoutes } from './modules/payments/payments.routes.js';
import { loggerOptions } from './security/logger.js';
import { OpsState, registerOpsRoutes } from './ops/health.js';
import { ServerMetrics } from './ops/metrics.js';

/** How often started tariffs are mirrored and closed days frozen. */
const TARIFF_JOB_INTERVAL_MS = 5 * 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Issue 16: readiness, metrics and the shutdown flag (docs/operations.md). */
    ops: OpsState;
  }
}

/**
 * One line per request, written when it completed, instead of Fastify's two ("incoming request"
 * and "request completed"): issue 16, logging was ~7 % of a signed call's CPU. The line carries the
 * request (method, URL with the secret query values replaced by the `req` serializer) and the answer.
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * Builds the server: external plugins (form bodies, multipart, cookies, security headers), then the app context
 * (database, services), then routes. Migrates the database; does not listen.
 */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config),
    trustProxy: config.trustProxy,
    bodyLimit: 10 * 1024 * 1024,
    logController: new OneLineRequestLog(),
  });

  await app.register(formbody, { parser: formBodyParser });
  await app.register(multipart);
  await app.register(cookie);
  await registerSecurityHeaders(app, config);

  const ctx = await createContext(config, app.log);
  app.decorate('ctx', ctx);
  ctx.services.upgradeEngine.startSweep();
  ctx.services.accelerationDelivery.start(); // issue 15: paid accelerations reach their dataloggers
  const stopRollout = scheduleStrategyRollout(ctx, ctx.services.upgradeEngine);
  app.addHook('onClose', async () => {
    stopRollout();
    await ctx.services.accelerationDelivery.stop();
    await ctx.services.upgradeEngine.stop();
    await ctx.services.reports.runner.stop();
    await ctx.services.actionLog.close();
    ctx.services.notifications.close();
    await ctx.services.telemetry.ingest.close();
    await ctx.database.close();
  });

  // The one error handler: ApiError / ZodError / anything else → the wire envelope.
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.code === 3) request.log.error({ err: error }, 'unhandled error');
    const state = request.actionCall;
    if (state) state.err = apiError.code;
    const locale = state?.locale ?? pickLocale({}, request.headers['accept-language']);
    const status = state ? 200 : ((error as { statusCode?: number }).statusCode ?? 500);
    return reply.status(status).type('application/json; charset=utf-8').send(errorEnvelope(apiError, locale));
  });

  const ops = new OpsState(ctx, new ServerMetrics(Object.keys(handlers), ctx));
  app.decorate('ops', ops);
  registerOpsRoutes(app, ops);
  registerActionEndpoint(app, ctx, handlers, ops.metrics);
  registerIngestRoutes(app, ctx);
  registerExportRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  ctx.services.reports.runner.start();
  // Report mails: one pass every 5 minutes across instances (the job lease), each mail once (dedupe key).
  const reportJobs = new JobRunner(ctx.db, ctx.now, app.log);
  reportJobs.every('report-mails', REPORT_MAIL_INTERVAL_MS, () => ctx.services.reports.mails.run().then(() => undefined));
  // Issue 15: started tariffs shown on their plants, closed days' income frozen (docs/money/tariffs.md).
  reportJobs.every('tariff-income', TARIFF_JOB_INTERVAL_MS, async () => {
    await ctx.services.income.mirrorDue();
    await ctx.services.income.freezeAll();
  });
  // Issue 15: unpaid recharge orders expire, late credits turn overdue, pending renewals applied (docs/money/payments.md).
  reportJobs.every('recharge-payments', ctx.config.payments.jobEveryMs, () =>
    ctx.services.rechargeOrders.sweep(ctx.dbh, ctx.config.payments.paymentWindowMs).then(() => undefined),
  );
  app.addHook('onClose', () => {
    reportJobs.stop();
    return Promise.resolve();
  });
  registerPlantImageRoutes(app, ctx.services.plantImages);
  registerAvatarRoutes(app, ctx.services.avatars);
  registerBrandingRoutes(app, ctx);
  registerUpgRoutes(app, ctx, handlers); // issue 13: the upgrade service of spec §7
  registerPaymentRoutes(app, ctx); // issue 15: sandbox checkout and provider webhooks
  await registerSpa(app, config.webRoot);
  return app;
}
