import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type mqtt from 'mqtt';
import {
  DEVCODE_2341,
  energyCounters,
  sha1Hex,
  signCall,
  signLogin,
  timestampSalts,
  WEB_COMPANY_KEY,
  type AuthDat,
  type Envelope,
} from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/db.js';
import { topicOf } from '../../src/ingest/topics.js';
import { KIND_COLUMN } from '../../src/modules/telemetry/rollups.js';
import { decodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { localDay } from '../../src/shared/local-time.js';
import { encodePairs, engines, startTestServer } from '../harness.js';
import { dropScratchDatabase } from '../factories/pg-database.js';
import {
  connectDatalogger,
  createDatalogger,
  frame2341,
  waitFor,
  type TestDatalogger,
} from '../factories/telemetry-ingest.js';
import { TestSmtp } from '../notifications/smtp.js';
import { buildCompiledIfStale, spawnCompiled } from './compiled-server.js';
import { MOSQUITTO, startMosquitto, type RunningMosquitto } from '../factories/mosquitto.js';

/**
 * Issue 16, "Several instances": two compiled server processes (`node dist/main.js`) on ONE
 * PostgreSQL database and ONE real Mosquitto (MQTT_URL + MQTT_SHARED_GROUP: each frame goes to one
 * of the two), 50 dataloggers publishing QoS 1 frames through the broker. Checked: every frame the
 * broker acknowledged is stored exactly once and each instance stored a share of them (the metrics
 * of both: accepted frames add up to the published ones, no duplicate), rollups equal the aggregate
 * of the raw samples, a session made on A works on B and the other way round, an account disabled
 * on A is refused by both, and the alarm and offline detection paths fire once: one alarm row per
 * event, each alarm in exactly one mail, each mail sent once through a real SMTP server.
 *
 * PostgreSQL only (SQLite is one process by design): runs when TEST_DATABASE_URL is set (CI), else
 * skipped with a warning, unless SUNWATCH_REQUIRE_PG=1. Size knobs for a longer run:
 * MULTI_DATALOGGERS (50) and MULTI_FRAMES (frames per datalogger, 20).
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const REQUIRE = process.env.SUNWATCH_REQUIRE_PG === '1';
const pgEngine = engines.find((e) => e.name === 'postgres');
const missing = !PG_URL
  ? 'TEST_DATABASE_URL is not set'
  : !pgEngine
    ? 'PostgreSQL is unreachable'
    : !fs.existsSync(MOSQUITTO)
      ? `${MOSQUITTO} is missing (apt-get install mosquitto)`
      : undefined;
if (missing) {
  if (REQUIRE) throw new Error(`multi-instance test: SUNWATCH_REQUIRE_PG=1 but ${missing}`);
  console.warn(`\n!!  multi-instance test SKIPPED: ${missing} (set SUNWATCH_REQUIRE_PG=1 to fail instead)\n`);
}

const DATALOGGERS = Math.max(10, Number(process.env.MULTI_DATALOGGERS ?? 50));
const FRAMES = Math.max(5, Number(process.env.MULTI_FRAMES ?? 20));
/** QoS 1 publishes each datalogger keeps in flight. */
const WINDOW = 8;
/** Dataloggers whose device reports a fault in every frame (one device alarm each). */
const FAULTY = 2;
/** Dataloggers that fall silent (one offline alarm each). */
const SILENT = 5;
/** Fault code 2 of the 2341 hybrid: a level-2 device alarm (test/telemetry/ingest.test.ts). */
const FAULT = 2;
const SHARED_GROUP = 'sunwatch';
const METRICS_TOKEN = 'multi-instance-metrics';
const PUBLIC_URL = 'https://multi.example';
const PASSWORD = 'Multi_2026';

interface Instance {
  name: string;
  proc: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<unknown>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Mosquitto 2 on a free loopback port: anonymous local clients, shared subscriptions built in, no persistence. */
async function startBroker(dir: string): Promise<RunningMosquitto> {
  return startMosquitto(dir, await freePort(), [
    'allow_anonymous true',
    'max_inflight_messages 100',
    'max_queued_messages 100000',
    'log_type error',
    'log_type warning',
  ]);
}

/** `node dist/main.js` (the compiled server, compiled-server.ts), ready once /readyz answers 200 (database, migrations, broker). */
async function spawnInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const c = await spawnCompiled(env, 45_000);
  return { name, proc: c.proc, url: c.httpUrl, output: c.output, exited: c.exited };
}

const nextSalt = timestampSalts(() => Date.now());

async function login(i: Instance, usr: string, password: string): Promise<Envelope<AuthDat>> {
  const salt = nextSalt();
  const tail = `&action=authSource` + encodePairs({ usr, 'company-key': WEB_COMPANY_KEY, source: 1 });
  const sign = signLogin(salt, sha1Hex(password), tail);
  return (await (await fetch(`${i.url}/public/?sign=${sign}&salt=${salt}${tail}`)).json()) as Envelope<AuthDat>;
}

async function call<T = unknown>(
  i: Instance,
  session: { token: string; secret: string },
  action: string,
  params: Record<string, string | number> = {},
): Promise<Envelope<T>> {
  const salt = nextSalt();
  const tail = `&action=${action}` + encodePairs({ source: 1, ...params });
  const sign = signCall(salt, session.secret, session.token, tail);
  const res = await fetch(`${i.url}/public/?sign=${sign}&salt=${salt}&token=${session.token}${tail}`);
  return (await res.json()) as Envelope<T>;
}

/** One counter of an instance's /metrics (summed over its labels). */
async function metric(i: Instance, name: string): Promise<number> {
  const text = await (
    await fetch(`${i.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (m) sum += Number(m[1]);
  }
  return sum;
}

/** Publishes `frames` QoS 1 frames (distinct minutes from `t0`) with WINDOW in flight; resolves when all are answered. */
function publishAll(
  c: mqtt.MqttClient,
  dl: TestDatalogger,
  t0: number,
  fault: boolean,
  acked: Set<number>,
): Promise<void> {
  return new Promise((resolve) => {
    let i = 0;
    let inFlight = 0;
    const next = () => {
      while (i < FRAMES && inFlight < WINDOW) {
        const ts = t0 + i * 60_000;
        const frame = JSON.stringify(frame2341(dl.pn, ts, i, fault ? { fault: FAULT } : {}));
        i += 1;
        inFlight += 1;
        c.publish(topicOf(dl.pn, 'data'), frame, { qos: 1 }, (err) => {
          inFlight -= 1;
          if (!err) acked.add(ts); // the broker's PUBACK
          if (i >= FRAMES && inFlight === 0) resolve();
          else next();
        });
      }
    };
    next();
  });
}

describe.skipIf(missing !== undefined)('several server instances on one PostgreSQL and one Mosquitto', () => {
  it(
    'store every frame once, agree on rollups, sessions and disabling, and raise and mail each alarm once',
    async () => {
      const started = performance.now();
      buildCompiledIfStale();
      const builtMs = Math.round(performance.now() - started);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-multi-'));
      const smtp = new TestSmtp();
      let broker: Awaited<ReturnType<typeof startMosquitto>> | undefined;
      const instances: Instance[] = [];
      const clients: mqtt.MqttClient[] = [];
      let dbUrl: string | undefined;
      let dataDir: string | undefined;
      try {
        // The database, its accounts, plants, dataloggers and one alarm-mail subscription, made in-process.
        const prep = await startTestServer(pgEngine!, {
          seed: false,
          config: { telemetry: { ...loadConfig({}).telemetry, mqttEnabled: false, jobsEnabled: false } },
        });
        dbUrl = prep.config.databaseUrl!;
        const accounts = prep.ctx.services.accounts;
        const owner = await accounts.create({
          usr: 'multi_owner',
          password: PASSWORD,
          role: 0,
          email: 'owner@multi.example',
        });
        await accounts.create({ usr: 'multi_operator', password: PASSWORD, role: 15 });
        const victim = await accounts.create({ usr: 'multi_victim', password: PASSWORD, role: 0 });
        const dls: TestDatalogger[] = [];
        for (let k = 0; k < DATALOGGERS; k++) dls.push(await createDatalogger(prep.ctx, { heartbeatInterval: 60 }));
        const plantIds = dls.map((d) => d.projectId!);
        await prep.ctx.db.updateTable('projects').set({ owner_id: owner.id }).where('id', 'in', plantIds).execute();
        const now0 = Date.now();
        const push = await prep.ctx.db
          .insertInto('email_push')
          .values({
            account_id: owner.id,
            email: 'owner@multi.example',
            alarm_levels: 0b1111, // levels 0–3: device alarms and offline
            report_types: 0,
            locale: 'en_US',
            enabled: 1,
            created_at: now0,
            updated_at: now0,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await prep.ctx.db
          .insertInto('email_push_plants')
          .values(plantIds.map((project_id) => ({ push_id: push.id, project_id })))
          .execute();
        dataDir = prep.dataDir;
        await prep.close();

        const preparedMs = Math.round(performance.now() - started);
        await smtp.up();
        broker = await startBroker(dir);
        const env = (name: string): Record<string, string> => ({
          DATA_DIR: dataDir!,
          DATABASE_URL: dbUrl!,
          HOST: '127.0.0.1',
          PORT: '0',
          DEMO_DATA: '0',
          LOG_LEVEL: 'warn',
          METRICS_TOKEN,
          MQTT_URL: `mqtt://127.0.0.1:${broker!.port}`,
          MQTT_SHARED_GROUP: SHARED_GROUP,
          MQTT_CLIENT_ID: `sunwatch-multi-${name}`,
          // Short job intervals (each job still runs in one instance at a time: the jobs table lease).
          OFFLINE_CHECK_MS: '200',
          ALARM_MAIL_SCAN_MS: '200',
          MAIL_SEND_MS: '200',
          SMTP_URL: smtp.url,
          SMTP_TIMEOUT_MS: '3000',
          PUBLIC_URL,
          SHUTDOWN_TIMEOUT_MS: '5000',
        });
        instances.push(...(await Promise.all([spawnInstance('A', env('A')), spawnInstance('B', env('B'))])));
        const [a, b] = instances as [Instance, Instance];
        const startedAt = performance.now() - started;

        // 50 dataloggers publish through the broker, QoS 1, a fault in every frame of the first FAULTY.
        const t0 = Math.floor(Date.now() / 60_000) * 60_000 - (FRAMES + 5) * 60_000;
        const acked = new Map(dls.map((d) => [d.pn, new Set<number>()]));
        clients.push(...(await Promise.all(dls.map((d) => connectDatalogger(broker!.port, d.pn, d.token)))));
        const ingestStart = performance.now();
        const publishing = Promise.all(dls.map((d, k) => publishAll(clients[k]!, d, t0, k < FAULTY, acked.get(d.pn)!)));

        // Meanwhile: sessions across instances, and an account disabled on A refused by both.
        const operator = (await login(a, 'multi_operator', PASSWORD)).dat!;
        const onA = await login(a, 'multi_victim', PASSWORD);
        const onB = await login(b, 'multi_victim', PASSWORD);
        expect(onA.err).toBe(0);
        expect(onB.err).toBe(0);
        for (const i of [a, b]) {
          expect((await call(i, onA.dat!, 'queryAccountInfo')).err, `A's session on ${i.name}`).toBe(0);
          expect((await call(i, onB.dat!, 'queryAccountInfo')).err, `B's session on ${i.name}`).toBe(0);
        }
        expect((await call(a, operator, 'disableOrEnableAccount', { uid: victim.id, enable: 'false' })).err).toBe(0);
        const disabledAt = performance.now();
        expect((await call(a, onA.dat!, 'queryAccountInfo')).err).toBe(10);
        expect((await call(a, onB.dat!, 'queryAccountInfo')).err).toBe(10);
        expect((await login(b, 'multi_victim', PASSWORD)).err).toBe(25); // sign-in reads the account: at once
        // B's session cache re-reads the auth epoch once its last read is older than AUTH_CACHE_CHECK_MS (200 ms).
        await new Promise((r) => setTimeout(r, Math.max(0, 220 - (performance.now() - disabledAt))));
        expect((await call(b, onB.dat!, 'queryAccountInfo')).err).toBe(10);
        expect((await call(b, onA.dat!, 'queryAccountInfo')).err).toBe(10);
        const refusedAfterMs = Math.round(performance.now() - disabledAt);

        await publishing;
        const publishedMs = Math.round(performance.now() - ingestStart);
        const published = DATALOGGERS * FRAMES;
        const ackedTotal = [...acked.values()].reduce((n, s) => n + s.size, 0);
        expect(ackedTotal).toBe(published);

        const check = openDatabase({ ...prep.config, databaseUrl: dbUrl });
        try {
          const db = check.db;
          const devOf = new Map<number, string>();
          const count = async () =>
            Number(
              (
                await db
                  .selectFrom('samples')
                  .select((eb) => eb.fn.countAll().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            );
          // The broker acked on receipt; the instances commit a moment later.
          await waitFor(async () => (await count()) >= published, 20_000 + published * 5).catch(() => undefined);
          const ingestMs = Math.round(performance.now() - ingestStart);
          const devices = await db
            .selectFrom('devices')
            .select(['id', 'pn'])
            .where(
              'pn',
              'in',
              dls.map((d) => d.pn),
            )
            .execute();
          for (const d of devices) devOf.set(d.id, d.pn);
          expect(devices.length).toBe(DATALOGGERS); // one device per datalogger, registered once
          // The instances' counters settle too (a late second delivery would show here).
          const accepted = () => Promise.all(instances.map((i) => metric(i, 'sunwatch_ingest_frames_accepted_total')));
          await waitFor(async () => (await accepted()).reduce((x, y) => x + y, 0) >= published, 10_000).catch(
            () => undefined,
          );
          await new Promise((r) => setTimeout(r, 300));

          // Every acknowledged frame stored exactly once (and nothing else).
          const rows = await db.selectFrom('samples').select(['device_id', 'ts', 'data']).execute();
          const seen = new Map<string, Set<number>>();
          let duplicates = 0;
          for (const r of rows) {
            const pn = devOf.get(r.device_id)!;
            const s = seen.get(pn) ?? new Set<number>();
            if (s.has(Number(r.ts))) duplicates += 1;
            s.add(Number(r.ts));
            seen.set(pn, s);
          }
          for (const d of dls)
            expect([...(seen.get(d.pn) ?? [])].sort(), `stored frames of ${d.pn}`).toEqual(
              [...acked.get(d.pn)!].sort(),
            );

          // Both instances took part, and together they accepted each frame once: a second delivery of a
          // frame (a subscription that is not shared) would be accepted twice and counted as a duplicate.
          const share = await accepted();
          const dupMetric = await Promise.all(
            instances.map((i) => metric(i, 'sunwatch_ingest_samples_duplicate_total')),
          );
          const storedMetric = await Promise.all(
            instances.map((i) => metric(i, 'sunwatch_ingest_samples_stored_total')),
          );
          console.log(
            `[multi-instance] ${DATALOGGERS} dataloggers: frames published ${published}, acked ${ackedTotal}, stored ${rows.length}, ` +
              `duplicates ${duplicates + dupMetric[0]! + dupMetric[1]!}; accepted A ${share[0]} / B ${share[1]} ` +
              `(stored A ${storedMetric[0]} / B ${storedMetric[1]}); published in ${publishedMs} ms, stored in ${ingestMs} ms; build ${builtMs} ms, database ready ${preparedMs} ms, instances up ${Math.round(startedAt)} ms; ` +
              `disabled account refused by B ${refusedAfterMs} ms after the change`,
          );
          expect(rows.length).toBe(published);
          expect(duplicates).toBe(0);
          expect(dupMetric).toEqual([0, 0]);
          expect(share[0]! + share[1]!).toBe(published);
          expect(storedMetric[0]! + storedMetric[1]!).toBe(published);
          for (const n of share) expect(n, 'each instance stores a share').toBeGreaterThan(0);

          // Rollups = the aggregate of the raw samples (per device and local day: count, counter min/max),
          // latest = the newest sample.
          const scratch = new Map<string, { n: number; min: Record<string, number>; max: Record<string, number> }>();
          for (const r of rows) {
            const key = `${r.device_id}|${localDay(Number(r.ts), 0)}`;
            const acc = scratch.get(key) ?? { n: 0, min: {}, max: {} };
            acc.n += 1;
            for (const [kind, v] of Object.entries(
              energyCounters(DEVCODE_2341, { values: decodeSample(DEVCODE_2341, r.data) }),
            )) {
              const col = KIND_COLUMN[kind as keyof typeof KIND_COLUMN];
              acc.min[col] = Math.min(acc.min[col] ?? Infinity, v);
              acc.max[col] = Math.max(acc.max[col] ?? -Infinity, v);
            }
            scratch.set(key, acc);
          }
          const days = await db
            .selectFrom('device_days')
            .selectAll()
            .where('device_id', 'in', [...devOf.keys()])
            .execute();
          expect(days.length).toBe(scratch.size);
          for (const d of days) {
            const acc = scratch.get(`${d.device_id}|${d.day}`);
            expect(acc, `rollup ${d.device_id}/${d.day} without samples`).toBeDefined();
            expect(d.samples).toBe(acc!.n);
            for (const col of Object.keys(acc!.min)) {
              const row = d as unknown as Record<string, number | null>;
              expect(row[`${col}_min`]).toBeCloseTo(acc!.min[col]!, 6);
              expect(row[`${col}_max`]).toBeCloseTo(acc!.max[col]!, 6);
            }
          }
          const latest = await db.selectFrom('device_latest').select(['device_id', 'ts']).execute();
          const newest = t0 + (FRAMES - 1) * 60_000;
          for (const id of devOf.keys()) expect(Number(latest.find((l) => l.device_id === id)?.ts)).toBe(newest);

          // Device alarms: one open alarm per faulty device, although its frames went to both instances.
          const faultAlarms = await db
            .selectFrom('alarms')
            .select(['id', 'datalogger_id', 'code', 'ended_at'])
            .where('level', '<', 3)
            .execute();
          expect(faultAlarms.map((x) => [x.datalogger_id, x.code, x.ended_at]).sort()).toEqual(
            dls
              .slice(0, FAULTY)
              .map((d) => [d.id, FAULT, null])
              .sort(),
          );

          // Offline detection: SILENT dataloggers fall silent (their last frame moved 10 minutes back, past
          // the 3-minute window); the job, under its lease, raises one offline alarm for each, once.
          const silent = dls.slice(FAULTY, FAULTY + SILENT);
          for (const c of clients) c.end(true);
          await db
            .updateTable('dataloggers')
            .set((eb) => ({ last_seen_at: eb('last_seen_at', '-', 600_000) }))
            .where(
              'id',
              'in',
              silent.map((d) => d.id),
            )
            .execute();
          const offline = () =>
            db.selectFrom('alarms').select(['id', 'datalogger_id']).where('level', '=', 3).execute();
          await waitFor(async () => (await offline()).length >= SILENT, 10_000);
          // A few more job rounds on both instances: nothing more.
          await new Promise((r) => setTimeout(r, 1000));
          const offlineAlarms = await offline();
          expect(offlineAlarms.map((x) => x.datalogger_id).sort()).toEqual(silent.map((d) => d.id).sort());
          const events = await db.selectFrom('datalogger_events').select('pn').where('kind', '=', 'offline').execute();
          expect(events.map((e) => e.pn).sort()).toEqual(silent.map((d) => d.pn).sort());

          // Mails: every alarm raised is in exactly one mail, each mail queued once and sent once.
          const alarmIds = [...faultAlarms, ...offlineAlarms].map((x) => Number(x.id)).sort((x, y) => x - y);
          const mailed = () =>
            smtp.received.flatMap((m) => [...m.text.matchAll(/alarm\?id=(\d+)/g)].map((x) => Number(x[1])));
          await waitFor(async () => alarmIds.every((id) => mailed().includes(id)), 10_000).catch(() => undefined);
          await new Promise((r) => setTimeout(r, 600)); // more notifier and sender rounds: nothing more
          const queue = await db.selectFrom('mail_queue').select(['id', 'state', 'message_id']).execute();
          console.log(
            `[multi-instance] alarms: ${faultAlarms.length} device + ${offlineAlarms.length} offline; ` +
              `mails queued ${queue.length}, received by SMTP ${smtp.received.length}`,
          );
          expect(mailed().sort((x, y) => x - y)).toEqual(alarmIds);
          expect(queue.every((m) => m.state === 'sent')).toBe(true);
          expect(smtp.received.length).toBe(queue.length);
          expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(queue.length);
          expect(smtp.to('owner@multi.example').length).toBe(queue.length);
        } finally {
          await check.close();
        }

        for (const i of instances) i.proc.kill('SIGTERM');
        await Promise.all(instances.map((i) => i.exited));
        console.log(`[multi-instance] total ${Math.round(performance.now() - started)} ms`);
      } catch (err) {
        for (const i of instances)
          console.error(`--- instance ${i.name} output (tail) ---\n${i.output().slice(-4000)}`);
        if (broker) console.error(`--- mosquitto ---\n${broker.output().slice(-2000)}`);
        throw err;
      } finally {
        for (const c of clients) c.end(true);
        for (const i of instances) if (i.proc.exitCode === null) i.proc.kill('SIGKILL');
        broker?.proc.kill('SIGTERM');
        await smtp.down();
        if (dbUrl) await dropScratchDatabase(PG_URL!, new URL(dbUrl).pathname.slice(1));
        fs.rmSync(dir, { recursive: true, force: true });
        if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000 + DATALOGGERS * FRAMES * 20,
  );
});
