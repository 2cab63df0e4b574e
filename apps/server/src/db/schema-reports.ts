import type { Generated } from 'kysely';

/** Issue 11 report exports and their durable job state (migration 0016). */
export interface ReportFilesTable {
  id: Generated<number>;
  account_id: number;
  scope: string;
  type: string;
  date: string;
  sdate: string;
  edate: string;
  project_id: number | null;
  device_id: number | null;
  target: string;
  pn: string;
  sn: string;
  devcode: number;
  devaddr: number;
  locale: string;
  name: string;
  /** 'queued' | 'exporting' | 'done' | 'failed'. */
  state: string;
  progress: Generated<number>;
  attempts: Generated<number>;
  lease_owner: Generated<string>;
  lease_until: Generated<number>;
  size: Generated<number>;
  path: Generated<string>;
  error: Generated<string>;
  created_at: number;
  finished_at: number | null;
}

export interface ReportTables {
  report_files: ReportFilesTable;
}
