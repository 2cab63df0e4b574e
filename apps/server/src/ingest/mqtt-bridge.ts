import os from 'node:os';
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
  /**
   * Client id of this instance's persistent session (MQTT_CLIENT_ID; default `sunwatch-<hostname>`):
   * unacknowledged frames are redelivered to it after a reconnect. Unique per instance.
   */
  clientId?: string;
}

/** mqtt.js internals used to acknowledge a QoS 1 message after its commit (mqtt 5). */
interface ManualAck {
  _sendPacket(packet: { cmd: 'puback'; messageId: number }, cb?: () => void): void;
  stream?: { destroy(): void };
}

/**
 * External broker mode (MQTT_URL): the server connects as a privileged client (credentials from
 * the URL) and subscribes to every datalogger's data and heartbeat topics. The broker's own
 * password file + ACL authenticate dataloggers and confine them to their topics (server README);
 * here a frame whose topic PN has no datalogger is still dropped and counted (`unknown_pn`).
 *
 * Acknowledgement after commit: the session is persistent (clean: false, a stable client id) and
 * a data/heartbeat message is acknowledged (PUBACK) only once its batch committed, or it was
 * refused for good (bad frame, counted). When storing fails the bridge drops the connection
 * without PUBACK; the broker redelivers the message when the session resumes. mqtt.js handles
 * incoming messages one at a time and sends PUBACK from `handleMessage`'s callback, so the
 * callback is called at once with an error (= no automatic PUBACK, next message) and PUBACK is
 * sent by hand after the commit. The broker's in-flight window (mosquitto
 * `max_inflight_messages`) bounds how many frames wait for a commit.
 */
export async function startMqttBridge(
  ingest: IngestService,
  opts: BridgeOptions,
  log: FastifyBaseLogger,
): Promise<MqttTransport> {
  const url = new URL(opts.url);
  const client = mqtt.connect(opts.url, {
    clientId: opts.clientId ?? `sunwatch-${os.hostname()}`.slice(0, 64),
    clean: false,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  const prefix = opts.sharedGroup ? `$share/${opts.sharedGroup}/` : '';
  const manual = client as unknown as ManualAck;
  const NO_AUTO_ACK = new Error('acknowledged after commit');
  /** Messages handed to ingestion whose PUBACK is not yet decided (graceful close waits for them). */
  const inFlight = new Set<Promise<void>>();
  let draining = false;
  let closing: Promise<void> | undefined;
  client.handleMessage = (packet, callback) => {
    const t = parseTopic(packet.topic);
    if (t?.kind === 'ack') opts.onAck?.(t.pn, packet.payload as Buffer);
    if (!t || (t.kind !== 'data' && t.kind !== 'heartbeat')) return callback();
    // Shutting down: not ingested and not acknowledged; the broker delivers it again.
    if (draining) return callback(NO_AUTO_ACK);
    const payload = packet.payload;
    const p = t.kind === 'data' ? ingest.submitData(t.pn, payload) : ingest.submitHeartbeat(t.pn, payload);
    const messageId = packet.messageId;
    const stream = manual.stream;
    const settle = (stored: boolean, err?: unknown) => {
      if (packet.qos === 0 || messageId === undefined) return;
      if (stored) {
        if (manual.stream === stream) manual._sendPacket({ cmd: 'puback', messageId });
        return;
      }
      log.error({ err, pn: t.pn }, 'mqtt bridge: frame not stored; reconnecting without PUBACK for redelivery');
      if (manual.stream === stream) stream?.destroy();
    };
    const done = p.then(
      (r) => settle(!(r.reason === 'internal' || r.reason === 'busy'), r.detail),
      (err: unknown) => settle(false, err),
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
    // When the ingestion queue is full, wait before taking the next message (throttles the broker).
    if (packet.qos === 0) {
      if (ingest.busy) void done.then(() => callback());
      else callback();
      return;
    }
    if (ingest.busy) void done.then(() => callback(NO_AUTO_ACK));
    else callback(NO_AUTO_ACK);
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
    connected: () => client.connected && !draining,
    close: () =>
      (closing ??= (async () => {
        draining = true;
        while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        await new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
      })()),
  };
}
