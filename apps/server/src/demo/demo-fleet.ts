import path from 'node:path';
import { startDemoFleet, type DemoFleet } from '@sunwatch/simulator';
import type { RunningServer } from '../server.js';
import { seedTelemetry } from './seed-telemetry.js';
import { seedDistribution } from './seed-distribution.js';

/**
 * Starts the in-process demo fleet of `npm start` (DEMO_FLEET): exactly the seeded demo
 * dataloggers, so owner_anna / owner_ben see live data. History (DEMO_HISTORY_DAYS) is pushed
 * through the ingestion service in-process on first start, the gap since the last run on later
 * starts; then the dataloggers publish over MQTT to the embedded broker (HTTP ingest when MQTT
 * is off). Plant states live in `<dataDir>/demo-fleet-state.json`.
 */
export async function startServerDemoFleet(server: RunningServer): Promise<DemoFleet | undefined> {
  const ctx = server.app.ctx;
  const { fleet } = await seedTelemetry(server.app);
  // The unassigned demo stock is simulated too, so an owner it is given to sees live data at once.
  if (ctx.config.seedDemo) fleet.dataloggers.push(...(await seedDistribution(server.app)));
  if (fleet.dataloggers.length === 0) return undefined;
  // Dataloggers without any stored sample start fresh (their saved state belongs to an old database).
  const withData = new Set(
    (
      await ctx.db
        .selectFrom('devices')
        .select('pn')
        .where(
          'pn',
          'in',
          fleet.dataloggers.map((d) => d.pn),
        )
        .where('last_sample_at', 'is not', null)
        .execute()
    ).map((r) => r.pn),
  );
  const fresh = new Set(fleet.dataloggers.map((d) => d.pn).filter((pn) => !withData.has(pn)));
  const embedded = server.mqtt?.mode === 'embedded';
  const ingest = ctx.services.telemetry.ingest;
  const log = {
    info: (m: string) => ctx.log.info(m),
    warn: (m: string) => ctx.log.warn(m),
  };
  return startDemoFleet({
    fleet,
    mqttUrl: embedded ? `mqtt://127.0.0.1:${server.mqtt!.port}` : undefined,
    httpUrl: embedded ? undefined : server.url,
    statePath: path.join(ctx.config.dataDir, 'demo-fleet-state.json'),
    historyDays: ctx.config.demoHistoryDays,
    fresh,
    log,
    // Ingestion evaluates alarms over every sample of a write batch, so history goes in as it comes.
    ingest: async (frames) => {
      let bad = 0;
      let first: string | undefined;
      const results = await Promise.all(frames.map((f) => ingest.submitData(f.pn, f)));
      for (const r of results) {
        if (r.ok) continue;
        bad += 1;
        first ??= `${r.reason}: ${r.detail ?? ''}`;
      }
      if (bad > 0) log.warn(`Demo fleet: ${bad} history frames refused (${first})`);
    },
  });
}
