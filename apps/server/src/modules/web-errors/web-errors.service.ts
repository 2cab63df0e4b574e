import crypto from 'node:crypto';
import {
  ApiError,
  ROLE,
  WEB_EVENT_KINDS,
  WEB_REPORT_LIMITS,
  WEB_REPORT_RATE,
  cut,
  scrubSecrets,
  scrubUrl,
  type Catalogue,
  type ParsedParamsOf,
  type WebErrorEventDetail,
  type WebErrorEventRow,
  type WebErrorGroupRow,
  type WebEvent,
  type WebEventKind,
  type WebReportDat,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { PruneOptions } from '../../db/prune.js';
import { redactText, redactUrl } from '../../security/redact.js';
import type { Clock } from '../../shared/clock.js';
import { AddressLimiter } from '../entry-extras/rate-limit.js';
import type { WebEventFilter, WebEventsRepository } from './web-errors.repository.js';

type ReportParams = ParsedParamsOf<Catalogue['reportWebEvents']>;
type GroupParams = ParsedParamsOf<Catalogue['queryWebErrorGroups']>;
type EventsParams = ParsedParamsOf<Catalogue['queryWebErrorEvents']>;

/** Counters of the collector, read by /metrics at scrape time (ops/metrics.ts). */
export interface WebEventMetrics {
  /** Events received (valid reports), by kind. */
  received: Record<WebEventKind, number>;
  /** Events refused by the rate limits. */
  dropped: number;
}

/** Text as stored: secrets scrubbed twice (the protocol's web rules, then the server's log redaction), cut. */
export function storedText(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return cut(redactText(scrubSecrets(text)).replace(/\u0000/g, ''), max);
}

/** A page address as stored: no fragment, secret query values replaced. */
export function storedUrl(url: string): string {
  return storedText(redactUrl(scrubUrl(url)), WEB_REPORT_LIMITS.url);
}

const HASHED_CHUNK = /-[A-Za-z0-9_-]{8}(\.m?js)/g;

/** The first stack line that names a frame, without origin, chunk hash, line and column. */
export function topFrame(stack: string): string {
  const line = stack.split('\n').find((l) => /\bat\s|@/.test(l)) ?? '';
  return line
    .trim()
    .replace(/https?:\/\/[^/\s)]+/g, '')
    .replace(/\?[^:\s)]*/g, '')
    .replace(HASHED_CHUNK, '$1')
    .replace(/(:\d+)+\)?$/, '')
    .replace(/(:\d+)+\)/g, ')');
}

/** A route with its numbers folded (`/device/42` and `/device/43` are one page). */
export function routeKey(route: string): string {
  return route.split('?')[0]!.replace(/\d+/g, ':n');
}

/**
 * The group of an event: errors by kind, message (numbers and quoted values folded) and top stack
 * frame; traces by their source and route; replays by route.
 */
export function fingerprintOf(e: Pick<WebEvent, 'kind' | 'source' | 'message' | 'stack' | 'route' | 'url'>): string {
  const route = routeKey(e.route || (e.url ?? ''));
  const key =
    e.kind === 'error'
      ? `error\n${scrubSecrets(e.message)
          .replace(/(["']).*?\1/g, '$1…$1')
          .replace(/\d+/g, 'N')}\n${topFrame(e.stack ?? '')}`
      : e.kind === 'trace'
        ? `trace\n${e.source}\n${route}`
        : `replay\n${route}`;
  return crypto.createHash('sha1').update(key, 'utf8').digest('hex');
}

/**
 * Web error reporting (issue 16, spec §9): the collector of the web app's events and the operator's
 * reads. Reports are rate limited in this instance's memory (per sign-in session; unsigned ones per
 * client address and for the whole instance: WEB_REPORT_RATE), scrubbed of secrets, grouped by
 * fingerprint and folded per tab session (a loop of one error is one row with a count). Events are
 * telemetry of the web app like the action log: no audit rows.
 */
export class WebErrorsService {
  readonly metrics: WebEventMetrics = {
    received: Object.fromEntries(WEB_EVENT_KINDS.map((k) => [k, 0])) as Record<WebEventKind, number>,
    dropped: 0,
  };
  private readonly perSession: AddressLimiter;
  private readonly perAddress: AddressLimiter;
  private readonly publicAll: AddressLimiter;
  private readonly tenants = new Map<string, number | null>();

  constructor(
    private readonly deps: {
      repo: WebEventsRepository;
      now: Clock;
      /** The manufacturer (role 1) on an account path, if any. */
      manufacturerOnPath: (path: string) => Promise<{ id: number } | undefined>;
    },
  ) {
    const { windowMs } = WEB_REPORT_RATE;
    this.perSession = new AddressLimiter(WEB_REPORT_RATE.perSession, windowMs, deps.now);
    this.perAddress = new AddressLimiter(WEB_REPORT_RATE.perAddress, windowMs, deps.now);
    this.publicAll = new AddressLimiter(WEB_REPORT_RATE.publicPerInstance, windowMs, deps.now);
  }

  /** How many of `n` events the limits let through now (each one counted). */
  private admit(caller: Caller | undefined, ip: string, n: number): number {
    let ok = 0;
    for (let i = 0; i < n; i++) {
      const pass = caller
        ? this.perSession.hit(`s:${caller.sessionId}`)
        : this.perAddress.allowed(ip) &&
          this.publicAll.allowed('all') &&
          this.perAddress.hit(ip) &&
          this.publicAll.hit('all');
      if (!pass) break;
      ok++;
    }
    return ok;
  }

  private async tenantOf(caller: Caller): Promise<number | null> {
    if (caller.role === ROLE.OPERATOR) return null;
    if (this.tenants.has(caller.path)) return this.tenants.get(caller.path)!;
    const id = (await this.deps.manufacturerOnPath(caller.path))?.id ?? null;
    if (this.tenants.size > 10_000) this.tenants.clear();
    this.tenants.set(caller.path, id);
    return id;
  }

  /** reportWebEvents / reportWebEventsPublic. 13 when the limit lets no event through. */
  async report(
    caller: Caller | undefined,
    p: ReportParams,
    call: { ip: string; userAgent: string },
  ): Promise<WebReportDat> {
    for (const e of p.events) this.metrics.received[e.kind]++;
    const accepted = this.admit(caller, call.ip, p.events.length);
    const dropped = p.events.length - accepted;
    this.metrics.dropped += dropped;
    if (accepted === 0) throw new ApiError(13, 'web events');
    const at = this.deps.now();
    const tenant = caller ? await this.tenantOf(caller) : null;
    const release = storedText(p.release ?? '', WEB_REPORT_LIMITS.release);
    const userAgent = cut(call.userAgent, WEB_REPORT_LIMITS.userAgent);
    for (const e of p.events.slice(0, accepted)) {
      const fingerprint = fingerprintOf(e);
      const url = storedUrl(e.url ?? '');
      const durationMs = e.kind === 'trace' ? (e.durationMs ?? null) : null;
      const fold = e.kind === 'replay' ? undefined : await this.deps.repo.findFold(fingerprint, p.sid);
      if (fold) {
        await this.deps.repo.fold(fold.id, at, { url, release, durationMs });
        continue;
      }
      await this.deps.repo.insert({
        ts: at,
        first_seen: at,
        kind: e.kind,
        source: e.source,
        fingerprint,
        sid: p.sid,
        message: storedText(e.message, WEB_REPORT_LIMITS.message),
        stack: storedText(e.stack ?? '', WEB_REPORT_LIMITS.stack),
        url,
        route: storedText(e.route ?? '', WEB_REPORT_LIMITS.route),
        release,
        user_agent: userAgent,
        account_id: caller?.accountId ?? null,
        usr: caller?.usr ?? '',
        tenant_id: tenant,
        duration_ms: durationMs,
        breadcrumbs: JSON.stringify(
          (e.breadcrumbs ?? []).map((b) => ({
            ts: b.ts,
            type: b.type,
            message: storedText(b.message, WEB_REPORT_LIMITS.breadcrumbMessage),
          })),
        ),
      });
    }
    return { accepted, dropped };
  }

  private filter(p: {
    kind?: WebEventKind | undefined;
    from?: number | undefined;
    to?: number | undefined;
    release?: string | undefined;
  }): WebEventFilter {
    if (p.from !== undefined && p.to !== undefined && p.to <= p.from) throw new ApiError(6, 'to');
    return { kind: p.kind, from: p.from, to: p.to, release: p.release || undefined };
  }

  async groups(
    p: GroupParams,
  ): Promise<{ total: number; page: number; pagesize: number; group: WebErrorGroupRow[]; releases: string[] }> {
    const f = this.filter(p);
    const { total, rows } = await this.deps.repo.groups(f, p.page, p.pagesize);
    return { total, page: p.page, pagesize: p.pagesize, group: rows, releases: await this.deps.repo.releases(f) };
  }

  async events(p: EventsParams): Promise<{ total: number; page: number; pagesize: number; event: WebErrorEventRow[] }> {
    const { total, rows } = await this.deps.repo.events(p.fingerprint, this.filter(p), p.page, p.pagesize);
    return { total, page: p.page, pagesize: p.pagesize, event: rows };
  }

  async event(id: number): Promise<WebErrorEventDetail> {
    const e = await this.deps.repo.event(id);
    if (!e) throw new ApiError(12);
    return e;
  }

  /** Deletes events last seen before `before` (the prune job, with the action log's retention). */
  prune(before: number, opts?: PruneOptions): Promise<number> {
    return this.deps.repo.prune(before, opts);
  }
}
