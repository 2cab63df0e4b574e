import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/db.js';
import { engines, startTestServer } from '../harness.js';
import { dropScratchDatabase } from '../factories/pg-database.js';
import { connectDatalogger, createDatalogger, type TestDatalogger } from '../factories/telemetry-ingest.js';
import {
  buildCompiledIfStale,
  compiledEnv,
  FramePublisher,
  spawnCompiled,
  type CompiledServer,
} from './compiled-server.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://sunwatch:sunwatch@127.0.0.1:5432/postgres';
/** Frames acknowledged before SIGTERM is sent (ingestion is then in full swing). */
const ACKED_BEFORE_SIGTERM = 300;
const DATALOGGERS = 4;
/** QoS 1 publishes each datalogger keeps in flight. */
const WINDOW = 16;

describe.each(engines)('the compiled server shuts down gracefully on SIGTERM ($name)', (engine) => {
  beforeAll(() => buildCompiledIfStale());

  it('during heavy ingestion: every acknowledged frame is stored, connections close, exit code 0', async () => {
    // A database with dataloggers (made in-process), then the compiled server on it.
    const prep = await startTestServer(engine, { seed: false });
    const dls: TestDatalogger[] = [];
    for (let i = 0; i < DATALOGGERS; i++) dls.push(await createDatalogger(prep.ctx, { withPlant: false }));
    const { dataDir, config } = prep;
    await prep.close();
    let child: CompiledServer | undefined;
    try {
      child = await spawnCompiled(compiledEnv(dataDir, config, { SHUTDOWN_TIMEOUT_MS: '15000' }));
      expect((await fetch(`${child.httpUrl}/readyz`)).status).toBe(200);

      const publishers = dls.map((d) => new FramePublisher(d, WINDOW));
      const clients = await Promise.all(dls.map((d) => connectDatalogger(child!.mqttPort, d.pn, d.token)));
      const publishing = publishers.map((p, k) => p.run(clients[k]!, { newFrames: true }));
      const acked = new Map(publishers.map((p) => [p.dl.pn, p.acked]));
      const sent = new Map(publishers.map((p) => [p.dl.pn, p.sent]));
      const total = () => publishers.reduce((n, p) => n + p.acked.size, 0);
      const until = Date.now() + 20_000;
      while (total() < ACKED_BEFORE_SIGTERM) {
        if (Date.now() > until) throw new Error(`only ${total()} frames acknowledged:\n${child.output()}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const ackedAtSignal = total();
      child.proc.kill('SIGTERM');
      const exit = await child.exited;
      await Promise.all(publishing);
      for (const c of clients) c.end(true);

      expect(exit, child.output()).toEqual({ code: 0, signal: null });
      expect(child.output()).toContain('SIGTERM: shutting down');
      expect(child.output()).toContain('Shutdown complete');

      // Every acknowledged frame is in the database (each frame: one sample of its datalogger's device).
      const check = openDatabase(config);
      try {
        let stored = 0;
        for (const d of dls) {
          const rows = await check.db
            .selectFrom('samples')
            .innerJoin('devices', 'devices.id', 'samples.device_id')
            .select('samples.ts')
            .where('devices.datalogger_id', '=', d.id)
            .execute();
          const have = new Set(rows.map((r) => Number(r.ts)));
          expect(rows.length).toBe(have.size); // exactly once
          const missing = [...acked.get(d.pn)!].filter((ts) => !have.has(ts));
          expect(missing, `acknowledged but not stored (${d.pn})`).toEqual([]);
          // Nothing stored that was never sent.
          expect([...have].filter((ts) => !sent.get(d.pn)!.has(ts))).toEqual([]);
          stored += have.size;
        }
        const ackedTotal = total();
        console.log(
          `[shutdown ${engine.name}] acked before SIGTERM ${ackedAtSignal}, acked in all ${ackedTotal}, stored ${stored}, lost 0`,
        );
        expect(ackedTotal).toBeGreaterThanOrEqual(ackedAtSignal);
        expect(stored).toBeGreaterThanOrEqual(ackedTotal);
        // Stored without PUBACK: at most the frames in flight when the connections ended (resent by a real datalogger).
        expect(stored - ackedTotal).toBeLessThanOrEqual(DATALOGGERS * WINDOW);
      } finally {
        await check.close();
      }
    } finally {
      if (child && child.proc.exitCode === null) child.proc.kill('SIGKILL');
      if (config.databaseUrl) await dropScratchDatabase(PG_URL, new URL(config.databaseUrl).pathname.slice(1));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
