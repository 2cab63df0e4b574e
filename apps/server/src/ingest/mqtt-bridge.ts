import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import type { IngestService } from '../modules/telemetry/ingest.service.js';
import type { MqttTransport } from './mqtt-transport.js';
import { parseTopic } from './topics.js';

export interface BridgeOptions {
  url: string;
  /** `$share/<group>/…` subscriptions so several instances split the load ('' = plain). */
  sharedGroup: string;
  /** A datalogger's `ack` message. */
  onAck?: (pn: string, payload: Buffer) => void;
}

/**
 * External broker mode (MQTT_URL): the server connects as a privileged client (credentials from
 * the URL) and subscribes to every datalogger's data and heartbeat topics. The broker's own
 * password file + ACL authenticate dataloggers and confine them to their topics (server README);
 * here a frame whose topic PN has no datalogger is still dropped and counted (`unknown_pn`).
 * Messages are acknowledged as they are queued; when the ingestion queue is full the
 * acknowledgement waits, which throttles the broker's delivery.
 */
export async function startMqttBridge(
  ingest: IngestService,
  opts: BridgeOptions,
  log: FastifyBaseLogger,
): Promise<MqttTransport> {
  const url = new URL(opts.url);
  const client = mqtt.connect(opts.url, {
    clientId: `sunwatch-server-${crypto.randomBytes(6).toString('hex')}`,
    clean: true,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  const prefix = opts.sharedGroup ? `$share/${opts.sharedGroup}/` : '';
  client.handleMessage = (packet, callback) => {
    const t = parseTopic(packet.topic);
    if (t?.kind === 'ack') opts.onAck?.(t.pn, packet.payload as Buffer);
    if (!t || (t.kind !== 'data' && t.kind !== 'heartbeat')) return callback();
    const payload = packet.payload;
    const p = t.kind === 'data' ? ingest.submitData(t.pn, payload) : ingest.submitHeartbeat(t.pn, payload);
    p.catch((err: unknown) => log.error({ err }, 'mqtt bridge: ingestion failed'));
    if (ingest.busy) {
      p.then(
        () => callback(),
        () => callback(),
      );
    } else callback();
  };
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => {
      client.end(true);
      reject(new Error(`Cannot connect to the MQTT broker at MQTT_URL (${url.protocol}//${url.host}): ${err.message}`));
    };
    client.once('error', onError);
    client.once('connect', () => {
      client.off('error', onError);
      resolve();
    });
  });
  client.on('error', (err) => log.error({ err }, 'mqtt bridge error'));
  const subscribe = () =>
    new Promise<void>((resolve, reject) =>
      client.subscribe(
        [`${prefix}sw/dl/+/data`, `${prefix}sw/dl/+/heartbeat`, `${prefix}sw/dl/+/ack`],
        { qos: 1 },
        (err, granted) => {
          if (err) return reject(err);
          const refused = (granted ?? []).filter((g) => g.qos > 2);
          if (refused.length > 0)
            return reject(new Error(`MQTT broker refused ${refused.map((g) => g.topic).join(', ')}`));
          resolve();
        },
      ),
    );
  await subscribe();
  log.info(`MQTT bridge connected to ${url.protocol}//${url.host}`);
  return {
    mode: 'external',
    port: Number(url.port || 1883),
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) =>
        client.publish(topic, payload, { qos: 1 }, (err) => (err ? reject(err) : resolve())),
      ),
    close: () => new Promise<void>((resolve) => client.end(false, {}, () => resolve())),
  };
}
