import type { FastifyServerOptions } from 'fastify';
import type { AppConfig } from '../config.js';
import { redactDeep, redactText, redactUrl, serializeError } from './redact.js';

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/**
 * The Fastify logger: pino with every line redacted (docs/security/accounts-auth-logs.md):
 * - `req`: Fastify's request shape with the URL's secret query values replaced;
 * - `err`: pino's error shape with secrets removed from message, stack and fields;
 * - every logged object (formatters.log) and every message string (hooks.logMethod).
 */
export function loggerOptions(config: AppConfig): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: config.logLevel,
    ...(config.logStream ? { stream: config.logStream } : {}),
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
      err: (err: Error) =>
        serializeError(err) as { type: string; message: string; stack: string; [key: string]: unknown },
    },
    formatters: {
      log: (obj: Record<string, unknown>) => redactDeep(obj) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args: unknown[], method: (...a: unknown[]) => void) {
        const out = args.map((a) => (typeof a === 'string' ? redactText(a) : a));
        // Without a message pino takes the error's own message as is: give it the redacted one.
        const first = out[0];
        const err = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
        if (err instanceof Error && typeof out[1] !== 'string') out.splice(1, 0, redactText(err.message));
        method.apply(this, out);
      },
    },
  };
}
