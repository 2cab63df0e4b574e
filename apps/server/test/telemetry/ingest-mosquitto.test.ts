import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { topicOf } from '../../src/ingest/topics.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { MOSQUITTO, startMosquitto } from '../factories/mosquitto.js';
import { createDatalogger, frame2341, freshPn, waitFor, type TestDatalogger } from '../factories/telemetry-ingest.js';

const MOSQUITTO_PASSWD = process.env.MOSQUITTO_PASSWD_BIN ?? '/usr/bin/mosquitto_passwd';
const HAVE = fs.existsSync(MOSQUITTO) && fs.existsSync(MOSQUITTO_PASSWD);
if (!HAVE) {
  if (process.env.SUNWATCH_REQUIRE_MOSQUITTO === '1') {
    throw new Error(
      `SUNWATCH_REQUIRE_MOSQUITTO=1 but ${MOSQUITTO} / ${MOSQUITTO_PASSWD} are missing (apt-get install mosquitto)`,
    );
  }
  console.warn(
    '\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n' +
      `!!  ${MOSQUITTO} not found: the external-broker (MQTT_URL) test is SKIPPED.\n` +
      '!!  Install mosquitto, or set SUNWATCH_REQUIRE_MOSQUITTO=1 to fail instead.\n' +
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n',
  );
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

/** The ACL of the server README: the server reads data/heartbeat/ack and writes cmd; dataloggers only their own topics. */
const ACL = `user sunwatch-server
topic read sw/dl/+/data
topic read sw/dl/+/heartbeat
topic read sw/dl/+/ack
topic write sw/dl/+/cmd

pattern write sw/dl/%u/data
pattern write sw/dl/%u/heartbeat
pattern write sw/dl/%u/ack
pattern read sw/dl/%u/cmd
`;

const engine = engines.find((e) => e.name === 'sqlite')!;

describe.skipIf(!HAVE)('external Mosquitto broker (MQTT_URL)', () => {
  let dir: string;
  let broker: ChildProcess;
  let port: number;
  let s: TestServer;
  let a: TestDatalogger;
  let b: TestDatalogger;
  const ghost = freshPn();
  const pw = { server: 'server-secret', a: 'a-secret', b: 'b-secret', ghost: 'ghost-secret' };
  const pns = { a: freshPn(), b: freshPn() };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-mosquitto-'));
    port = await freePort();
    const passwd = path.join(dir, 'passwd');
    execFileSync(MOSQUITTO_PASSWD, ['-b', '-c', passwd, 'sunwatch-server', pw.server]);
    execFileSync(MOSQUITTO_PASSWD, ['-b', passwd, pns.a, pw.a]);
    execFileSync(MOSQUITTO_PASSWD, ['-b', passwd, pns.b, pw.b]);
    execFileSync(MOSQUITTO_PASSWD, ['-b', passwd, ghost, pw.ghost]);
    fs.chmodSync(passwd, 0o600);
    fs.writeFileSync(path.join(dir, 'acl'), ACL, { mode: 0o600 });
    broker = (
      await startMosquitto(dir, port, [
        'allow_anonymous false',
        `password_file ${passwd}`,
        `acl_file ${path.join(dir, 'acl')}`,
        'log_type error',
      ])
    ).proc;
    s = await startTestServer(engine, {
      config: {
        telemetry: {
          ...loadConfig({}).telemetry,
          mqttUrl: `mqtt://sunwatch-server:${pw.server}@127.0.0.1:${port}`,
          mqttSharedGroup: 'sunwatch',
          jobsEnabled: false,
        },
      },
    });
    a = await createDatalogger(s.ctx, { pn: pns.a });
    b = await createDatalogger(s.ctx, { pn: pns.b });
  });

  afterAll(async () => {
    await s?.stop();
    broker?.kill('SIGTERM');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const connect = (user: string, password: string) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: user,
      password,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
  const deviceOf = (pn: string) =>
    s.ctx.db.selectFrom('devices').select(['id']).where('pn', '=', pn).executeTakeFirst();

  it('the server subscribes through the broker; published frames are stored', async () => {
    expect(s.mqtt?.mode).toBe('external');
    const c = await connect(a.pn, pw.a);
    const t0 = Date.UTC(2025, 0, 10, 12);
    for (let i = 0; i < 5; i++)
      await c.publishAsync(topicOf(a.pn, 'data'), JSON.stringify(frame2341(a.pn, t0 + i * 60_000, i)), { qos: 1 });
    await c.publishAsync(topicOf(a.pn, 'heartbeat'), JSON.stringify({ pn: a.pn, ts: Date.now(), fw: 'MQ-1' }), {
      qos: 1,
    });
    await c.endAsync();
    const dev = await waitFor(() => deviceOf(a.pn));
    await waitFor(async () => {
      const n = await s.ctx.db
        .selectFrom('samples')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('device_id', '=', dev.id)
        .executeTakeFirstOrThrow();
      return Number(n.n) === 5;
    });
    await waitFor(async () => {
      const dl = await s.ctx.db
        .selectFrom('dataloggers')
        .select(['firmware'])
        .where('id', '=', a.id)
        .executeTakeFirstOrThrow();
      return dl.firmware === 'MQ-1';
    });
  });

  it("the broker's ACL keeps a datalogger off another's topic; an unknown PN is dropped by the server", async () => {
    const m = s.ctx.services.telemetry.metrics;
    const unknown0 = m.badByReason.unknown_pn;
    const c = await connect(a.pn, pw.a);
    await c.publishAsync(topicOf(b.pn, 'data'), JSON.stringify(frame2341(b.pn, Date.UTC(2025, 0, 10), 0)), { qos: 1 });
    await c.endAsync();
    const g = await connect(ghost, pw.ghost);
    await g.publishAsync(topicOf(ghost, 'data'), JSON.stringify(frame2341(ghost, Date.UTC(2025, 0, 10), 0)), {
      qos: 1,
    });
    await g.endAsync();
    await waitFor(() => Promise.resolve(m.badByReason.unknown_pn > unknown0));
    await s.ctx.services.telemetry.ingest.drain();
    expect(await deviceOf(b.pn)).toBeUndefined();
    expect(
      await s.ctx.db.selectFrom('devices').select('id').where('pn', '=', ghost).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('the server reaches a datalogger on its cmd topic', async () => {
    const c = await connect(b.pn, pw.b);
    await c.subscribeAsync(topicOf(b.pn, 'cmd'), { qos: 1 });
    const got = new Promise<string>((r) => c.once('message', (_t, p) => r(p.toString())));
    await s.mqtt!.publish(topicOf(b.pn, 'cmd'), 'hello');
    expect(await got).toBe('hello');
    const acked = new Promise<[string, string]>((r) => {
      const off = s.ctx.services.telemetry.onAck((pn, p) => {
        off();
        r([pn, p.toString()]);
      });
    });
    await c.publishAsync(topicOf(b.pn, 'ack'), 'done', { qos: 1 });
    expect(await acked).toEqual([b.pn, 'done']);
    await c.endAsync();
  });
});
