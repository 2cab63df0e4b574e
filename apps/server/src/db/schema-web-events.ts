import type { Generated } from 'kysely';

/** The web app's reported events (migration 0045; issue 16, web error reporting). */
export interface WebEventsTable {
  id: Generated<number>;
  /** Last seen, epoch ms. */
  ts: number;
  first_seen: number;
  /** WebEventKind */
  kind: string;
  /** WebEventSource */
  source: string;
  /** sha1 hex of kind, normalised message and top stack frame (traces and replays: the route). */
  fingerprint: string;
  /** The tab's random session id. */
  sid: string;
  message: string;
  stack: Generated<string>;
  url: Generated<string>;
  route: Generated<string>;
  release: Generated<string>;
  user_agent: Generated<string>;
  account_id: number | null;
  usr: Generated<string>;
  /** The manufacturer (role 1) on the account's path. */
  tenant_id: number | null;
  duration_ms: number | null;
  count: Generated<number>;
  /** JSON array of WebBreadcrumb. */
  breadcrumbs: Generated<string>;
}

export interface WebEventTables {
  web_events: WebEventsTable;
}
