import mqtt, { type MqttClient } from 'mqtt';
import type { Heartbeat, IngestFrame } from '@sunwatch/protocol';
import { withTimeout, type Command, type Publisher } from './publisher.js';
import { assertLoopback, topics } from './topics.js';

export interface MqttPublisherOptions {
  url: string;
  pn: string;
  token?: string;
  timeoutMs?: number;
}

/**
 * MQTT link of one datalogger: username = PN, password = device token; frames on
 * `sw/dl/<PN>/data` with QoS 1, heartbeats on `…/heartbeat`, commands from `…/cmd`, acks to
 * `…/ack`. It does not reconnect by itself: the datalogger decides when to (and buffers meanwhile).
 */
export class MqttPublisher implements Publisher {
  private client?: MqttClient;
  private handlers: ((cmd: Command) => void)[] = [];
  private readonly t: ReturnType<typeof topics>;
  private readonly timeoutMs: number;

  constructor(private readonly opts: MqttPublisherOptions) {
    assertLoopback(opts.url);
    this.t = topics(opts.pn);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  async connect(): Promise<void> {
    if (this.connected) return;
    await this.close();
    const client = await mqtt.connectAsync(this.opts.url, {
      username: this.opts.pn,
      password: this.opts.token ?? '',
      // The server accepts only ids derived from the PN: `dl-<PN>` or `dl-<PN>/<suffix>`.
      clientId: `dl-${this.opts.pn}/sim${Math.random().toString(36).slice(2, 8)}`,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: this.timeoutMs,
      protocolVersion: 4,
    });
    client.on('error', () => undefined); // surfaced through failed publishes / connected=false
    client.on('message', (topic, payload) => {
      if (topic !== this.t.cmd) return;
      let cmd: unknown;
      try {
        cmd = JSON.parse(payload.toString('utf8'));
      } catch {
        return;
      }
      if (cmd && typeof cmd === 'object' && !Array.isArray(cmd)) for (const h of this.handlers) h(cmd as Command);
    });
    this.client = client;
    await withTimeout(client.subscribeAsync(this.t.cmd, { qos: 1 }), this.timeoutMs, 'subscribe');
  }

  private async publish(topic: string, body: unknown, qos: 0 | 1): Promise<void> {
    const c = this.client;
    if (!c?.connected) throw new Error('not connected');
    await withTimeout(c.publishAsync(topic, JSON.stringify(body), { qos }), this.timeoutMs, `publish ${topic}`);
  }

  publishFrame(frame: IngestFrame): Promise<void> {
    return this.publish(this.t.data, frame, 1);
  }

  publishHeartbeat(hb: Heartbeat): Promise<void> {
    return this.publish(this.t.heartbeat, hb, 0);
  }

  onCommand(handler: (cmd: Command) => void): void {
    this.handlers.push(handler);
  }

  ack(body: Record<string, unknown>): Promise<void> {
    return this.publish(this.t.ack, body, 1);
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) await c.endAsync(true).catch(() => undefined);
  }
}
