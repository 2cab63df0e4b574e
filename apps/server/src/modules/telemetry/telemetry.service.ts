import { ApiError } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import { hashDeviceToken, newDeviceToken } from './device-tokens.js';
import type { IngestService } from './ingest.service.js';
import type { IngestMetrics } from './metrics.js';

/** Telemetry services other modules use: device tokens, the ingestion queue, metrics. */
export class TelemetryService {
  /** Set once MQTT runs (embedded broker or MQTT_URL bridge); undefined with MQTT_ENABLED=0. */
  mqtt:
    | {
        publish(topic: string, payload: string | Buffer): Promise<void>;
        isConnected?(pn: string): boolean;
        /** Issue 16: /readyz and /metrics (MqttTransport). */
        connected?(): boolean;
        connectedDataloggers?(): number;
      }
    | undefined;

  /** False when the embedded broker knows the datalogger holds no connection; undefined when unknown. */
  isConnected(pn: string): boolean | undefined {
    return this.mqtt?.isConnected?.(pn);
  }

  private readonly ackListeners = new Set<(pn: string, payload: Buffer) => void>();

  constructor(
    private readonly db: Db,
    readonly ingest: IngestService,
    private readonly now: () => number,
  ) {}

  get metrics(): IngestMetrics {
    return this.ingest.metrics;
  }

  /**
   * Issues a new device token for a datalogger (replacing any previous one) and returns it in
   * plain text — the only time it is visible; only its SHA-256 is stored. err 257 for an unknown PN.
   */
  async issueDeviceToken(pn: string): Promise<string> {
    const token = newDeviceToken();
    const res = await this.db
      .updateTable('dataloggers')
      .set({ device_token_hash: hashDeviceToken(token), updated_at: this.now() })
      .where('pn', '=', pn)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw new ApiError(257);
    this.ingest.invalidate(pn);
    return token;
  }

  /** Publishes a command to a datalogger on `sw/dl/<PN>/cmd` (QoS 1). err 263 when MQTT is off. */
  async publishCommand(pn: string, payload: string | Buffer): Promise<void> {
    if (!this.mqtt) throw new ApiError(263);
    await this.mqtt.publish(`sw/dl/${pn}/cmd`, payload);
  }

  /** Listens to datalogger acknowledgements (`sw/dl/<PN>/ack`); returns the unsubscribe function. */
  onAck(listener: (pn: string, payload: Buffer) => void): () => void {
    this.ackListeners.add(listener);
    return () => this.ackListeners.delete(listener);
  }

  /** Called by the MQTT transports for every `ack` message. */
  emitAck(pn: string, payload: Buffer): void {
    for (const l of this.ackListeners) {
      try {
        l(pn, payload);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** Whether `token` is the datalogger's current device token. */
  async verifyDeviceToken(pn: string, token: string | undefined | null): Promise<boolean> {
    return (await this.ingest.verifyToken(pn, token)) !== undefined;
  }
}
