import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/db.js';
import { IngestService } from './ingest.service.js';
import { PgIngestStore, SqliteIngestStore } from './ingest-store.js';
import { TelemetryService } from './telemetry.service.js';

/** Wires the telemetry services for an app context (SQLite fast path or PostgreSQL store). */
export function createTelemetry(config: AppConfig, database: DatabaseHandle, log: FastifyBaseLogger): TelemetryService {
  const store = database.sqlite ? new SqliteIngestStore(database.sqlite) : new PgIngestStore(database.db);
  const t = config.telemetry;
  const ingest = new IngestService(
    database.db,
    store,
    { batchMs: t.batchMs, maxBatch: t.maxBatch, maxQueue: t.maxQueue, limits: t.limits },
    config.now,
    log,
  );
  return new TelemetryService(database.db, ingest, config.now);
}
