/** Telemetry: sample storage, day rollups, ingestion, device tokens (issue 3). */
export * from './sample-codec.js';
export * from './rollups.js';
