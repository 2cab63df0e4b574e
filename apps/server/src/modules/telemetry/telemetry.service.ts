import { ApiError } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import { hashDeviceToken, newDeviceToken } from './device-tokens.js';
import type { IngestService } from './ingest.service.js';
import type { IngestMetrics } from './metrics.js';

/** Telemetry services other modules use: device tokens, the ingestion queue, metrics. */
export class TelemetryService {
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

  /** Whether `token` is the datalogger's current device token. */
  async verifyDeviceToken(pn: string, token: string | undefined | null): Promise<boolean> {
    return (await this.ingest.verifyToken(pn, token)) !== undefined;
  }
}
