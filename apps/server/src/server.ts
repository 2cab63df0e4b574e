import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { AppConfig } from './config.js';
import { startTelemetryRuntime, type MqttTransport, type TelemetryRuntime } from './ingest/index.js';
import { startMetricsListener, type MetricsListener } from './ops/health.js';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  /** MQTT ingestion (embedded broker or bridge); `mqtt.port` is the bound broker port. */
  mqtt: MqttTransport | undefined;
  /** The bound port of the METRICS_PORT listener, when configured. */
  metricsPort?: number;
  /**
   * Graceful shutdown (docs/operations.md): /readyz turns 503, MQTT takes no new frame and waits
   * until those in flight are stored and acknowledged, jobs stop, the ingest queue is written, then
   * HTTP stops accepting and finishes the calls in flight, the database closes last.
   */
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
  let telemetry: TelemetryRuntime;
  try {
    telemetry = await startTelemetryRuntime(app);
  } catch (e) {
    await app.close();
    throw e;
  }
  let metrics: MetricsListener | undefined;
  const { metricsPort, metricsHost } = config.ops;
  if (metricsPort !== undefined) {
    try {
      metrics = await startMetricsListener(app.ops, metricsPort, metricsHost);
    } catch (e) {
      await telemetry.close();
      await app.close();
      throw e;
    }
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    app,
    mqtt: telemetry.mqtt,
    metricsPort: metrics?.port,
    close: async () => {
      app.ops.draining = true;
      await telemetry.close();
      await app.close();
      await metrics?.close();
    },
  };
}
