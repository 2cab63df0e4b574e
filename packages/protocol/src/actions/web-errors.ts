import { z } from 'zod';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { defineAction, result } from './define.js';
import {
  WEB_EVENT_KINDS,
  WEB_REPORT_LIMITS,
  WEB_SID_PATTERN,
  type WebEventKind,
  type WebEventSource,
} from '../web-reporting.js';
import { webEventsParam, type WebBreadcrumb } from './web-errors-params.js';

/**
 * Issue 16, web error reporting (spec §9; docs/operations.md "Web error reporting"): the web app
 * reports script errors, slow pages (traces) and session trails (replay) to the platform itself,
 * and the operator reads them beside the action log. Two collector actions with one schema: the
 * signed one while a session exists (the account and its manufacturer are recorded), the public one
 * before sign-in (or when the session is gone), limited per client address. Sizes, sample rates
 * and rate limits: web-errors-params.ts.
 */

/** What a report call answers: events stored, events dropped by the rate limit. */
export interface WebReportDat {
  accepted: number;
  dropped: number;
}

/** One group of events (same fingerprint) in the operator's list. */
export interface WebErrorGroupRow {
  fingerprint: string;
  kind: WebEventKind;
  /** The message of the group's latest event. */
  message: string;
  route: string;
  /** Occurrences in the range (repeats in one tab are folded into one event with a count). */
  count: number;
  /** Distinct tab sessions. */
  sessions: number;
  /** Distinct signed-in accounts (0 when all were before sign-in). */
  accounts: number;
  /** Epoch ms. */
  firstSeen: number;
  lastSeen: number;
  /** The release of the latest event. */
  release: string;
  /** The latest event's id (queryWebErrorEvent). */
  lastId: number;
}

/** One stored event (occurrences of one fingerprint in one tab session, folded). */
export interface WebErrorEventRow {
  id: number;
  fingerprint: string;
  kind: WebEventKind;
  source: WebEventSource;
  message: string;
  url: string;
  route: string;
  release: string;
  userAgent: string;
  /** null before sign-in. */
  accountId: number | null;
  usr: string;
  /** The manufacturer account the reporting account belongs to (null: none, or unsigned). */
  tenantId: number | null;
  /** Traces: the page's time (ms). */
  durationMs: number | null;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

/** An event with its stack and breadcrumb trail (the detail drawer). */
export interface WebErrorEventDetail extends WebErrorEventRow {
  stack: string;
  breadcrumbs: WebBreadcrumb[];
}

const reportParams = () =>
  actionParams({
    /** JSON array of WebEvent (web-errors-params.ts). */
    events: webEventsParam(),
    /** The tab's random session id. */
    sid: z.string().regex(WEB_SID_PATTERN),
    release: z.string().max(WEB_REPORT_LIMITS.release).optional(),
  });

export const reportWebEvents = defineAction({
  name: 'reportWebEvents',
  summary:
    "Web error reporting, signed (any role): a batch of the web app's events (errors, slow-page traces, session trails; `events` JSON, at most WEB_REPORT_LIMITS) from tab session `sid`; stored with the account, scrubbed of secrets, grouped by fingerprint. 13 when the session's rate limit is spent. WebReportDat.",
  params: reportParams(),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<WebReportDat>(),
});

export const reportWebEventsPublic = defineAction({
  name: 'reportWebEventsPublic',
  summary:
    'Web error reporting before sign-in (no session): as reportWebEvents without an account, limited per client address and per server instance (WEB_REPORT_RATE; 13 when spent). WebReportDat.',
  params: reportParams(),
  access: { auth: 'public', permission: null },
  mutates: true,
  result: result<WebReportDat>(),
});

const epochMs = () => wireInt().min(0);
const filters = {
  kind: z.enum(WEB_EVENT_KINDS).optional(),
  from: epochMs().optional(),
  to: epochMs().optional(),
  release: z.string().trim().max(WEB_REPORT_LIMITS.release).optional(),
};

export const queryWebErrorGroups = defineAction({
  name: 'queryWebErrorGroups',
  summary:
    "Operator: the web app's events grouped by fingerprint, latest first, paged on the server; `kind`, `from`/`to` (epoch ms of the last occurrence, `to` excluded) and `release` filter. `releases` lists the releases seen in the range (newest first, at most 20). {total,page,pagesize,group:[WebErrorGroupRow],releases}.",
  params: actionParams({ ...filters, page: page(), pagesize: pageSize(100) }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; group: WebErrorGroupRow[]; releases: string[] }>(),
});

export const queryWebErrorEvents = defineAction({
  name: 'queryWebErrorEvents',
  summary:
    'Operator: the events of one group (`fingerprint`), latest first, paged on the server, with the same filters. {total,page,pagesize,event:[WebErrorEventRow]}.',
  params: actionParams({
    fingerprint: z.string().regex(/^[0-9a-f]{40}$/),
    ...filters,
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; event: WebErrorEventRow[] }>(),
});

export const queryWebErrorEvent = defineAction({
  name: 'queryWebErrorEvent',
  summary: 'Operator: one event with its stack and breadcrumb trail. 12 when there is none. WebErrorEventDetail.',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<WebErrorEventDetail>(),
});
