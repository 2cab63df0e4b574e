/** Tables of migration 0003-ingest (issue 3: ingestion and jobs). */

/** One row per named background job: a database lease so only one instance runs it at a time. */
export interface JobsTable {
  name: string;
  /** Instance that holds (or last held) the lease. */
  lease_owner: string;
  /** Epoch ms until which the lease is held. */
  lease_until: number;
  last_run_at: number | null;
  last_error: string;
}

/** Frames accepted and datapoints stored per minute and server instance (issue 14, migration 0031). */
export interface IngestMinutesTable {
  /** Start of the minute, epoch ms. */
  minute: number;
  instance_id: string;
  frames: number;
  points: number;
}

export interface IngestTables {
  jobs: JobsTable;
  ingest_minutes: IngestMinutesTable;
}
