import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthFailReason } from '@sunwatch/protocol';
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
  /**
   * Connection events of dataloggers for the datalogger log (issue 10): a signed-in connection,
   * its end, and a refused sign-in with its reason (AUTH_FAIL_REASONS as `detail`; issue 14).
   */
  onConnection?: (e: { pn: string; kind: 'connect' | 'disconnect' | 'auth_fail'; detail: string }) => void;
  /** Largest MQTT packet accepted (MQTT_MAX_PACKET_BYTES); a bigger one closes the connection at its header. */
  maxPacketBytes: number;
}

/**
 * The client ids a datalogger may connect with: `dl-<PN>`, or `dl-<PN>/<suffix>` for several
 * connections of one datalogger. `/` cannot occur in a PN (it is a topic level), so no PN's ids
 * are another PN's: one datalogger can never take over another's session.
 */
export function clientIdAllowed(clientId: string, pn: string): boolean {
  const base = `dl-${pn}`;
  if (clientId === base) return true;
  return clientId.startsWith(`${base}/`) && /^[A-Za-z0-9_.-]{1,32}$/.test(clientId.slice(base.length + 1));
}

/** The parts of mqtt-packet's parser the size guard hooks (mqtt-packet 9). */
interface PacketParser {
  packet: { length: number };
  _parseLength(): boolean;
  _emitError(err: Error): void;
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

/**
 * Why a sign-in with user name = an existing or unknown PN and this password was refused
 * (AUTH_FAIL_REASONS; the `detail` of its `auth_fail` event). `known` is the datalogger, if any.
 */
export function refusalReason(known: { tokenHash: string | null } | undefined, token: string | undefined): AuthFailReason {
  if (!known) return 'unknown_pn';
  if (!token) return 'no_credentials';
  if (!known.tokenHash) return 'no_token';
  return 'wrong_token';
}

function authError(message: string, returnCode: 2 | 4 = 4): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The embedded broker (aedes) on MQTT_PORT. Each datalogger connects with username = PN and
 * password = its device token (else CONNACK 4, bad user name or password); it may publish only
 * `sw/dl/<own PN>/{data,heartbeat,ack}` and subscribe only `sw/dl/<own PN>/cmd` — anything else
 * closes the connection (publish) or is refused in SUBACK (0x80). The client id must be derived
 * from the PN (`clientIdAllowed`; else CONNACK 2, identifier rejected). A packet over
 * `maxPacketBytes` closes the connection as soon as its header is read (counted `too_large`).
 * Data and heartbeats are ingested inside `authorizePublish`, before aedes sends PUBACK: a
 * stored or refused (bad) frame is acknowledged; when storing failed the connection is closed
 * without PUBACK, so the datalogger sends the frame again.
 */
export async function startEmbeddedBroker(
  ingest: IngestService,
  opts: EmbeddedBrokerOptions,
  log: FastifyBaseLogger,
): Promise<MqttTransport> {
  const pnOf = new WeakMap<Client, string>();
  /** Frames handed to ingestion and not yet answered (graceful close waits for them). */
  const inFlight = new Set<Promise<void>>();
  let draining = false;
  let closing: Promise<void> | undefined;
  const broker = new Aedes({
    concurrency: opts.concurrency,
    authenticate(client, username, password, done) {
      const pn = username ?? '';
      const token = password?.toString('utf8');
      ingest.verifyToken(pn, token).then(
        (dl) => {
          if (!dl) {
            log.debug({ pn }, 'mqtt: bad device token');
            if (opts.onConnection && pn) {
              void ingest.datalogger(pn).then(
                (known) =>
                  opts.onConnection?.({ pn: pn.slice(0, 32), kind: 'auth_fail', detail: refusalReason(known, token) }),
                () => undefined,
              );
            }
            return done(authError('bad user name or password'), false);
          }
          if (!clientIdAllowed(client.id, dl.pn)) {
            log.warn({ pn, clientId: client.id }, 'mqtt: client id not derived from the PN refused');
            ingest.countRefused(dl.pn, 'client_id', client.id);
            opts.onConnection?.({
              pn: dl.pn,
              kind: 'auth_fail',
              detail: `${'client_id' satisfies AuthFailReason} ${client.id}`.slice(0, 200),
            });
            return done(authError('client identifier not allowed for this PN', 2), false);
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
      // Shutting down: no PUBACK (aedes closes the connection); the datalogger sends the frame again.
      if (draining) return done(new Error('server shutting down'));
      const submit =
        t.kind === 'data' ? ingest.submitData(pn, packet.payload) : ingest.submitHeartbeat(pn, packet.payload);
      const notStored = (err: unknown) => {
        // No PUBACK: closing the connection makes the datalogger send the frame again.
        log.error({ err, pn }, 'mqtt: frame not stored; closing the connection without PUBACK');
        done(new Error('frame not stored'));
      };
      const settled = submit.then((r) => {
        if (!r.ok && (r.reason === 'internal' || r.reason === 'busy')) return notStored(r.detail);
        done(null); // stored, or refused for good (counted as a bad frame): acknowledged
      }, notStored);
      inFlight.add(settled);
      void settled.finally(() => inFlight.delete(settled));
    },
    authorizeSubscribe(client, sub, done) {
      const pn = pnOf.get(client);
      const t = parseTopic(sub.topic);
      if (pn && t && t.pn === pn && t.kind === 'cmd') return done(null, sub);
      log.warn({ pn, topic: sub.topic }, 'mqtt: subscription outside own cmd topic refused');
      done(null, null); // SUBACK 0x80
    },
  });
  // Signed-in connections per PN (a datalogger may hold several: `dl-<PN>/<suffix>`).
  const live = new Map<string, number>();
  broker.on('client', (client) => {
    const pn = pnOf.get(client);
    if (pn) live.set(pn, (live.get(pn) ?? 0) + 1);
  });
  broker.on('clientDisconnect', (client) => {
    const pn = pnOf.get(client);
    if (!pn) return;
    const n = (live.get(pn) ?? 1) - 1;
    if (n <= 0) live.delete(pn);
    else live.set(pn, n);
  });
  if (opts.onConnection) {
    const ipOf = (c: Client) => {
      const conn = (c as unknown as { conn?: { remoteAddress?: string } }).conn;
      return conn?.remoteAddress ?? '';
    };
    broker.on('client', (client) => {
      const pn = pnOf.get(client);
      if (pn) opts.onConnection?.({ pn, kind: 'connect', detail: `${client.id} ${ipOf(client)}`.trim() });
    });
    broker.on('clientDisconnect', (client) => {
      const pn = pnOf.get(client);
      if (pn) opts.onConnection?.({ pn, kind: 'disconnect', detail: client.id });
    });
  }
  await broker.listen();
  const server = net.createServer((socket) => {
    const client = broker.handle(socket, undefined as never) as unknown as { _parser: PacketParser; id?: string };
    guardPacketSize(client._parser, opts.maxPacketBytes, () => {
      const pn = pnOf.get(client as unknown as Client);
      log.warn({ pn }, 'mqtt: packet over MQTT_MAX_PACKET_BYTES; connection closed');
      ingest.countRefused(pn, 'too_large', 'mqtt packet');
    });
  });
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
    isConnected: (pn) => live.has(pn),
    connected: () => server.listening && !draining,
    connectedDataloggers: () => live.size,
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
    close: () => (closing ??= closeGracefully()),
  };

  async function closeGracefully(): Promise<void> {
    draining = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    // Frames in flight: stored (or failed) and answered; then aedes writes their PUBACKs.
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    await new Promise((r) => setTimeout(r, 20));
    // end() sends what is buffered (the last PUBACKs) before FIN; a peer that does not close is cut.
    await Promise.all(
      [...sockets].map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.destroyed) return resolve();
            const cut = setTimeout(() => s.destroy(), 1000);
            s.once('close', () => {
              clearTimeout(cut);
              resolve();
            });
            s.end();
          }),
      ),
    );
    await stopped;
    await new Promise<void>((r) => broker.close(() => r()));
  }
}

/**
 * Refuses a packet whose announced length is over `max` right after its fixed header, before a
 * byte of its body is buffered: the parser reports an error and aedes closes the connection.
 */
function guardPacketSize(parser: PacketParser, max: number, onRefused: () => void): void {
  if (typeof parser._parseLength !== 'function') throw new Error('mqtt-packet parser without _parseLength');
  const parseLength = parser._parseLength.bind(parser);
  parser._parseLength = () => {
    const done = parseLength();
    if (done && parser.packet.length > max) {
      onRefused();
      parser._emitError(new Error(`packet of ${parser.packet.length} bytes is over ${max}`));
      return false;
    }
    return done;
  };
}
