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
 * The Fastify logger: pino with every line redacted (docs/security-notes-auth.md):
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
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? redactText(a) : a)),
        );
      },
    },
  };
}
