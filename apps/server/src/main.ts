import { loadConfig } from './config.js';
import { seedDemo } from './demo/seed-demo.js';
import { startServerDemoFleet } from './demo/demo-fleet.js';
import { topUpShowcase } from './demo/showcase.js';
import { startServer, type RunningServer } from './server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `Port ${config.port} on ${config.host} is already in use. Stop the other process or set PORT=<free port>.`,
      );
      process.exit(1);
    }
    if ((e as { code?: string }).code === 'SUNWATCH_MQTT_PORT_IN_USE') {
      console.error((e as Error).message);
      process.exit(1);
    }
    throw e;
  }
  if (config.demoDataSkipped) server.app.log.warn(config.demoDataSkipped);
  if (config.seedDemo) {
    const created = await seedDemo(server.app);
    if (created > 0) server.app.log.info(`Demo data: created ${created} accounts`);
  }
  console.log(`\nSunwatch is running at ${server.url}/`);
  if (config.seedDemo)
    console.log('Demo sign-in: operator / Operator_2026, owner_anna / Owner_2026 (more in docs/contracts.md)\n');
  // The simulated demo fleet (DEMO_FLEET=0 switches it off): history first, then live over MQTT.
  let demoFleet: Promise<{ stop(): Promise<void> } | undefined> = Promise.resolve(undefined);
  if (config.seedDemo && config.demoFleet) {
    demoFleet = startServerDemoFleet(server).catch((e: unknown) => {
      server.app.log.error(e, 'Demo fleet failed to start');
      return undefined;
    });
  }

  // The experience-code showcase (if an operator created it): its simulated figures follow the clock.
  const showcaseTicker = setInterval(() => {
    topUpShowcase(server.app.ctx, 240_000).catch((e: unknown) => server.app.log.warn(e, 'Showcase top-up failed'));
  }, 300_000);
  showcaseTicker.unref();

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    clearInterval(showcaseTicker);
    const limit = config.ops.shutdownTimeoutMs;
    console.log(`${signal}: shutting down (at most ${limit} ms)…`);
    // Bounded: whatever still waits after SHUTDOWN_TIMEOUT_MS is abandoned (nothing unstored was acknowledged).
    setTimeout(() => {
      console.error(`Shutdown did not finish within SHUTDOWN_TIMEOUT_MS=${limit} ms; exiting`);
      process.exit(1);
    }, limit).unref();
    demoFleet
      .then((f) => f?.stop())
      .catch(() => undefined)
      .then(() => server.close())
      .then(
        () => {
          console.log('Shutdown complete');
          process.exit(0);
        },
        (e: unknown) => {
          console.error(e);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
