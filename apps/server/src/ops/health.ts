import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { migrationProvider } from '../db/migrations/index.js';
import type { ServerMetrics } from './metrics.js';

/** Longest a readiness check waits for the database. */
const DB_CHECK_TIMEOUT_MS = 2000;

export interface Readiness {
  ready: boolean;
  /** Why not ready (empty when ready). */
  reasons: string[];
  /** Migrations in the database this version does not know (a newer instance migrated ahead): reported, still ready. */
  unknownMigrations: string[];
}

/** Operations state shared by the routes, the metrics listener and the shutdown. */
export class OpsState {
  /** Set when shutdown starts: /readyz answers 503 so the load balancer stops sending traffic. */
  draining = false;
  private knownMigrations: Promise<string[]> | undefined;

  constructor(
    readonly ctx: AppContext,
    readonly metrics: ServerMetrics,
  ) {}

  /** Database reachable, every migration of this version applied, MQTT ingestion connected, not shutting down. */
  async readiness(): Promise<Readiness> {
    const reasons: string[] = [];
    let unknownMigrations: string[] = [];
    if (this.draining) reasons.push('shutting down');
    let applied: string[] | undefined;
    try {
      applied = await withTimeout(
        sql<{ name: string }>`select name from kysely_migration`
          .execute(this.ctx.db)
          .then((r) => r.rows.map((x) => x.name)),
        DB_CHECK_TIMEOUT_MS,
      );
    } catch (err) {
      this.ctx.log.warn({ err }, 'readyz: database check failed');
      reasons.push('database unreachable');
    }
    if (applied) {
      this.knownMigrations ??= migrationProvider(this.ctx.database.dialect)
        .getMigrations()
        .then((m) => Object.keys(m));
      const known = await this.knownMigrations;
      const done = new Set(applied);
      const pending = known.filter((n) => !done.has(n));
      if (pending.length > 0) reasons.push(`migrations pending: ${pending.join(', ')}`);
      const ours = new Set(known);
      unknownMigrations = applied.filter((n) => !ours.has(n));
    }
    if (this.ctx.config.telemetry.mqttEnabled) {
      const mqtt = this.ctx.services.telemetry.mqtt;
      if (!mqtt?.connected?.()) {
        reasons.push(
          this.ctx.config.telemetry.mqttUrl
            ? 'mqtt broker not connected (MQTT_URL)'
            : 'embedded mqtt broker not listening',
        );
      }
    }
    return { ready: reasons.length === 0, reasons, unknownMigrations };
  }

  /** Whether a request may read /metrics: with METRICS_TOKEN set, only with `Authorization: Bearer <token>`. */
  metricsAllowed(authorization: string | undefined, separatePort: boolean): boolean {
    const token = this.ctx.config.ops.metricsToken;
    if (!token) return separatePort;
    const m = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!m) return false;
    const a = crypto.createHash('sha256').update(m[1]!.trim()).digest();
    const b = crypto.createHash('sha256').update(token).digest();
    return crypto.timingSafeEqual(a, b);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

interface Answer {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

async function answer(
  state: OpsState,
  path: string,
  authorization: string | undefined,
  separatePort: boolean,
): Promise<Answer | undefined> {
  const json = (status: number, body: unknown): Answer => ({
    status,
    type: 'application/json; charset=utf-8',
    body: JSON.stringify(body),
  });
  switch (path) {
    case '/healthz':
      return json(200, { status: 'ok', uptime_s: Math.round(process.uptime()) });
    case '/readyz': {
      const r = await state.readiness();
      const extra = r.unknownMigrations.length > 0 ? { unknown_migrations: r.unknownMigrations } : {};
      return r.ready
        ? json(200, { status: 'ready', ...extra })
        : json(503, { status: 'not ready', reasons: r.reasons, ...extra });
    }
    case '/metrics': {
      const token = state.ctx.config.ops.metricsToken;
      if (!token && !separatePort) return undefined; // not exposed on the main port without a token
      if (!state.metricsAllowed(authorization, separatePort)) {
        return { ...json(401, { status: 'unauthorized' }), headers: { 'www-authenticate': 'Bearer realm="metrics"' } };
      }
      const body = await state.metrics.registry.metrics();
      return { status: 200, type: state.metrics.registry.contentType, body };
    }
    default:
      return undefined;
  }
}

/** GET /healthz, /readyz and (with METRICS_TOKEN) /metrics on the main port. */
export function registerOpsRoutes(app: FastifyInstance, state: OpsState): void {
  for (const url of ['/healthz', '/readyz', '/metrics']) {
    app.get(url, { logLevel: 'warn' }, async (request, reply) => {
      const a = await answer(state, url, request.headers.authorization, false);
      if (!a) return reply.callNotFound();
      void reply.header('cache-control', 'no-store');
      for (const [k, v] of Object.entries(a.headers ?? {})) void reply.header(k, v);
      return reply.status(a.status).type(a.type).send(a.body);
    });
  }
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/** The separate listener of METRICS_PORT: /metrics, /healthz and /readyz only (bearer token too when METRICS_TOKEN is set). */
export async function startMetricsListener(state: OpsState, port: number, host: string): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const done = (a: Answer | undefined) => {
      if (!a) a = { status: 404, type: 'text/plain; charset=utf-8', body: 'not found\n' };
      if (req.method !== 'GET' && req.method !== 'HEAD')
        a = { status: 405, type: 'text/plain; charset=utf-8', body: 'method not allowed\n' };
      res.writeHead(a.status, { 'content-type': a.type, 'cache-control': 'no-store', ...(a.headers ?? {}) });
      res.end(req.method === 'HEAD' ? undefined : a.body);
    };
    answer(state, path, req.headers.authorization, true).then(done, (err: unknown) => {
      state.ctx.log.error({ err }, 'metrics listener: request failed');
      done({ status: 500, type: 'text/plain; charset=utf-8', body: 'internal error\n' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  state.ctx.log.info(`Metrics listening on ${host}:${bound} (/metrics, /healthz, /readyz)`);
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
