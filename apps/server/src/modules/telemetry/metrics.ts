/** Why a frame (or a device entry of a frame) was rejected. */
export const BAD_REASONS = [
  'too_large',
  'limits',
  'json',
  'schema',
  'unknown_pn',
  'pn_mismatch',
  'timestamp',
  'unknown_devcode',
  'unbound_devcode',
  'decode',
  'busy',
  'internal',
  'client_id',
] as const;
export type BadReason = (typeof BAD_REASONS)[number];

/** In-process ingestion counters (since start). */
export interface IngestMetrics {
  framesReceived: number;
  framesAccepted: number;
  heartbeats: number;
  /** Newly stored samples (one per device per timestamp). */
  samplesStored: number;
  /** Samples already stored before (resends) — ignored. */
  samplesDuplicate: number;
  /** Values of newly stored samples. */
  datapointsStored: number;
  devicesRegistered: number;
  /** Device rows whose firmware version a frame's `fw` changed. */
  deviceFirmwareUpdates: number;
  badFrames: number;
  badByReason: Record<BadReason, number>;
  batches: number;
  lastBatchFrames: number;
  lastBatchMs: number;
  /** Longest batch (ms, wall time including awaits). */
  maxBatchMs: number;
  /** Wall time spent writing batches (ms), for load diagnostics. */
  batchMsTotal: number;
  queued: number;
  maxQueued: number;
  /** Told after every batch with its wall time (ms) and frames (the /metrics histogram; issue 16). */
  onBatch?: (ms: number, frames: number) => void;
}

export function emptyMetrics(): IngestMetrics {
  return {
    framesReceived: 0,
    framesAccepted: 0,
    heartbeats: 0,
    samplesStored: 0,
    samplesDuplicate: 0,
    datapointsStored: 0,
    devicesRegistered: 0,
    deviceFirmwareUpdates: 0,
    badFrames: 0,
    badByReason: Object.fromEntries(BAD_REASONS.map((r) => [r, 0])) as Record<BadReason, number>,
    batches: 0,
    lastBatchFrames: 0,
    lastBatchMs: 0,
    maxBatchMs: 0,
    batchMsTotal: 0,
    queued: 0,
    maxQueued: 0,
  };
}
