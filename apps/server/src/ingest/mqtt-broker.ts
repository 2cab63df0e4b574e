import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { IngestService } from '../modules/telemetry/ingest.service.js';
import type { MqttTransport } from './mqtt-transport.js';
import { parseTopic, PUBLISH_KINDS } from './topics.js';

export interface EmbeddedBrokerOptions {
  port: number;
  host: string;
  /** In-flight publishes across clients (aedes `concurrency`). */
  concurrency: number;
  /** A datalogger's `ack` message. */
  onAck?: (pn: string, payload: Buffer) => void;
}

/** Thrown when MQTT_PORT is taken; `main.ts` prints the message. */
export class MqttPortInUseError extends Error {
  readonly code = 'SUNWATCH_MQTT_PORT_IN_USE';
  constructor(host: string, port: number) {
    super(
      `MQTT port ${port} on ${host} is already in use (another MQTT broker such as mosquitto?). ` +
        `Stop it, set MQTT_PORT=<free port> for the embedded broker, set MQTT_URL=mqtt://user:pass@host:port ` +
        `to use that broker instead, or MQTT_ENABLED=0 to ingest over HTTP only.`,
    );
  }
}

function authError(message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: 4 as const }) as AuthenticateError;
}

/**
 * The embedded broker (aedes) on MQTT_PORT. Each datalogger connects with username = PN and
 * password = its device token (else CONNACK 4, bad user name or password); it may publish only
 * `sw/dl/<own PN>/{data,heartbeat,ack}` and subscribe only `sw/dl/<own PN>/cmd` — anything else
 * closes the connection (publish) or is refused in SUBACK (0x80). Data and heartbeats are
 * ingested inside `authorizePublish`, before aedes sends PUBACK, so an acknowledged QoS 1 frame
 * is a committed frame.
 */
export async function startEmbeddedBroker(
  ingest: IngestService,
  opts: EmbeddedBrokerOptions,
  log: FastifyBaseLogger,
): Promise<MqttTransport> {
  const pnOf = new WeakMap<Client, string>();
  const broker = new Aedes({
    concurrency: opts.concurrency,
    authenticate(client, username, password, done) {
      const pn = username ?? '';
      const token = password?.toString('utf8');
      ingest.verifyToken(pn, token).then(
        (dl) => {
          if (!dl) {
            log.debug({ pn }, 'mqtt: bad device token');
            return done(authError('bad user name or password'), false);
          }
          pnOf.set(client, dl.pn);
          done(null, true);
        },
        (err: unknown) => {
          log.error({ err }, 'mqtt: authentication failed');
          done(Object.assign(new Error('server unavailable'), { returnCode: 3 as const }) as AuthenticateError, false);
        },
      );
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // broker-internal (wills of vanished clients)
      const pn = pnOf.get(client);
      const t = parseTopic(packet.topic);
      if (!pn || !t || t.pn !== pn || !(PUBLISH_KINDS as readonly string[]).includes(t.kind)) {
        log.warn({ pn, topic: packet.topic }, 'mqtt: publish outside own topics refused');
        return done(new Error(`publish to ${packet.topic} not allowed`));
      }
      if (t.kind === 'ack') {
        opts.onAck?.(pn, packet.payload as Buffer);
        return done(null);
      }
      const submit =
        t.kind === 'data' ? ingest.submitData(pn, packet.payload) : ingest.submitHeartbeat(pn, packet.payload);
      submit.then(
        () => done(null),
        (err: unknown) => {
          log.error({ err }, 'mqtt: ingestion failed');
          done(null);
        },
      );
    },
    authorizeSubscribe(client, sub, done) {
      const pn = pnOf.get(client);
      const t = parseTopic(sub.topic);
      if (pn && t && t.pn === pn && t.kind === 'cmd') return done(null, sub);
      log.warn({ pn, topic: sub.topic }, 'mqtt: subscription outside own cmd topic refused');
      done(null, null); // SUBACK 0x80
    },
  });
  await broker.listen();
  const server = net.createServer(broker.handle);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await new Promise<void>((r) => broker.close(() => r()));
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new MqttPortInUseError(opts.host, opts.port);
    throw e;
  }
  server.on('error', (err) => log.error({ err }, 'mqtt listener error'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  log.info(`MQTT broker listening on ${opts.host}:${port}`);
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  return {
    mode: 'embedded',
    port,
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) =>
        broker.publish(
          {
            cmd: 'publish',
            topic,
            payload: typeof payload === 'string' ? Buffer.from(payload) : payload,
            qos: 1,
            retain: false,
            dup: false,
          },
          (err) => (err ? reject(err) : resolve()),
        ),
      ),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      await new Promise<void>((r) => broker.close(() => r()));
    },
  };
}
