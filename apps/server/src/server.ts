import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { AppConfig } from './config.js';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds the app and listens on `config.host:config.port` (port 0 = a free port). */
export async function startServer(config: AppConfig): Promise<RunningServer> {
  const app = await buildApp(config);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    await app.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, app, close: () => app.close() };
}
