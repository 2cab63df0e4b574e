/** Telemetry: sample storage, day rollups, ingestion, device tokens (issue 3). */
export * from './sample-codec.js';
export * from './rollups.js';
export * from './device-tokens.js';
export * from './metrics.js';
export { IngestService, type IngestResult, type IngestOptions } from './ingest.service.js';
export { deviceStatus } from './ingest-planner.js';
export { localDay } from '../../shared/local-time.js';
export { TelemetryService } from './telemetry.service.js';
