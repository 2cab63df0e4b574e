/**
 * Registers a generated simulator fleet on the server's database for load tests and writes it,
 * with device tokens, to a 0600 JSON file for the simulator CLI:
 *
 *   npx tsx apps/server/src/demo/provision-fleet.ts --count 200 --out data/bench-fleet.json
 *   npx tsx apps/simulator/src/cli.ts --fleet data/bench-fleet.json --server http://127.0.0.1:8080
 *
 * Uses the server's configuration (DATA_DIR, DATABASE_URL, …); the demo accounts must exist.
 * Options: --count N, --seed S, --prefix P (PN prefix), --interval S, --owner USR, --dealer USR, --out FILE.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildFleet } from '@sunwatch/simulator';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { provisionFleet, writeFleetFile } from './seed-telemetry.js';

const { values: a } = parseArgs({
  options: {
    count: { type: 'string', default: '10' },
    seed: { type: 'string' },
    prefix: { type: 'string', default: 'BNCH' },
    interval: { type: 'string' },
    owner: { type: 'string' },
    dealer: { type: 'string' },
    out: { type: 'string', default: 'sim-fleet.json' },
  },
});

const config = { ...loadConfig(), logLevel: 'warn' as const };
const app = await buildApp(config);
try {
  const fleet = buildFleet({
    count: Number(a.count),
    seed: a.seed ? Number(a.seed) : undefined,
    prefix: a.prefix,
    collectInterval: a.interval ? Number(a.interval) : undefined,
  });
  const out = await provisionFleet(app, fleet, { owner: a.owner, dealer: a.dealer });
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), a.out!);
  writeFleetFile(file, out);
  console.log(`Provisioned ${out.dataloggers.length} dataloggers → ${file}`);
} finally {
  await app.close();
}
