/**
 * The operator's log pages (issue 14): their address-bar state (list kit specs) and the wire
 * parameters derived from it. Dates in the address bar are local calendar days (yyyy-mm-dd); the
 * wire takes epoch ms, `to` excluded (the day after the last day).
 */
import dayjs from 'dayjs';
import {
  AUTH_FAIL_REASONS,
  WEB_EVENT_KINDS,
  type WebEventKind,
  COLLECTOR_EVENT_KINDS,
  COLLECTOR_LOG_RESULTS,
  COLLECTOR_LOGS_MAX_DAYS,
  type AuthFailReason,
  type CollectorEventKind,
  type CollectorLogResult,
} from '@sunwatch/protocol';
import { intParam, wirePaging, type ListSpec } from '../../components/list';

export const PAGE_SIZES = [20, 50, 100] as const;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function dayParam(v: string | null): string {
  return v && DAY_RE.test(v) && dayjs(v).isValid() ? v : '';
}

/** Today as yyyy-mm-dd (local). */
export function today(now = Date.now()): string {
  return dayjs(now).format('YYYY-MM-DD');
}

/** [start of `from`, start of the day after `to`) in epoch ms (local days). */
export function dayRange(from: string, to: string): { from: number; to: number } {
  return { from: dayjs(from).startOf('day').valueOf(), to: dayjs(to).startOf('day').add(1, 'day').valueOf() };
}

// ---------------------------------------------------------------------------------------------
// log: the platform's datalogger log

export interface CollectorLogState {
  current: number;
  pageSize: number;
  /** The PN (contained in, or equal with `exact`). */
  search: string;
  exact: boolean;
  /** yyyy-mm-dd; '' = the default range (yesterday and today). */
  from: string;
  to: string;
  kinds: CollectorEventKind[];
  result: CollectorLogResult | '';
}

export const COLLECTOR_LOG_SPEC: ListSpec<CollectorLogState> = {
  defaultPageSize: 20,
  pageSizes: PAGE_SIZES,
  maxPageSize: 100,
  readFilters: (q) => {
    const result = q.get('result') ?? '';
    return {
      exact: q.get('exact') === '1',
      from: dayParam(q.get('from')),
      to: dayParam(q.get('to')),
      kinds: (q.get('kinds') ?? '')
        .split(',')
        .filter((k): k is CollectorEventKind => (COLLECTOR_EVENT_KINDS as readonly string[]).includes(k)),
      result: (COLLECTOR_LOG_RESULTS as readonly string[]).includes(result) ? (result as CollectorLogResult) : '',
    };
  },
  writeFilters(s, q) {
    if (s.exact) q.set('exact', '1');
    if (s.from) q.set('from', s.from);
    if (s.to) q.set('to', s.to);
    if (s.kinds.length) q.set('kinds', s.kinds.join(','));
    if (s.result) q.set('result', s.result);
  },
};

/** The days shown: the address bar's, else yesterday and today. */
export function collectorDays(s: Pick<CollectorLogState, 'from' | 'to'>, now = Date.now()): [string, string] {
  const to = s.to || today(now);
  const from = s.from || dayjs(to).subtract(1, 'day').format('YYYY-MM-DD');
  return from <= to ? [from, to] : [to, from];
}

/** Whether the days are within the server's limit (COLLECTOR_LOGS_MAX_DAYS). */
export function collectorRangeOk([from, to]: [string, string]): boolean {
  return dayjs(to).diff(dayjs(from), 'day') + 1 <= COLLECTOR_LOGS_MAX_DAYS;
}

export function collectorLogParams(s: CollectorLogState, now = Date.now()) {
  const pn = s.search.trim().toUpperCase();
  return {
    ...dayRange(...collectorDays(s, now)),
    ...(pn ? { pn, ...(s.exact ? { exact: '1' as const } : {}) } : {}),
    ...(s.kinds.length ? { kinds: s.kinds.join(',') } : {}),
    ...(s.result ? { result: s.result } : {}),
    ...wirePaging(s, 100),
  };
}

/** The refusal reason of an `auth_fail` detail (its first word), and the rest (a client id). */
export function authFailReason(detail: string): { reason?: AuthFailReason; rest: string } {
  const [first = '', ...rest] = detail.split(' ');
  return (AUTH_FAIL_REASONS as readonly string[]).includes(first)
    ? { reason: first as AuthFailReason, rest: rest.join(' ') }
    : { rest: detail };
}

// ---------------------------------------------------------------------------------------------
// actionLog: the action log

export type ErrFilter = 'all' | 'failed' | 'code';

export interface ActionLogState {
  current: number;
  pageSize: number;
  /** The account name (`abc*` = prefix). */
  search: string;
  /** The action name (`query*` = prefix). */
  act: string;
  errFilter: ErrFilter;
  /** With errFilter `code`. */
  err: number;
  ip: string;
  from: string;
  to: string;
}

export const ACTION_LOG_SPEC: ListSpec<ActionLogState> = {
  defaultPageSize: 20,
  pageSizes: PAGE_SIZES,
  maxPageSize: 100,
  readFilters: (q) => {
    const code = q.get('err');
    return {
      act: q.get('act') ?? '',
      errFilter: code !== null && intParam(code, -1) >= 0 ? 'code' : q.get('errOnly') === '1' ? 'failed' : 'all',
      err: intParam(code, 0),
      ip: q.get('ip') ?? '',
      from: dayParam(q.get('from')),
      to: dayParam(q.get('to')),
    };
  },
  writeFilters(s, q) {
    if (s.act.trim()) q.set('act', s.act.trim());
    if (s.errFilter === 'failed') q.set('errOnly', '1');
    if (s.errFilter === 'code') q.set('err', String(s.err));
    if (s.ip.trim()) q.set('ip', s.ip.trim());
    if (s.from) q.set('from', s.from);
    if (s.to) q.set('to', s.to);
  },
};

export function actionLogParams(s: ActionLogState) {
  const range = s.from && s.to ? dayRange(s.from <= s.to ? s.from : s.to, s.from <= s.to ? s.to : s.from) : undefined;
  return {
    ...(s.search.trim() ? { usr: s.search.trim() } : {}),
    ...(s.act.trim() ? { actionName: s.act.trim() } : {}),
    ...(s.errFilter === 'failed' ? { errOnly: '1' as const } : {}),
    ...(s.errFilter === 'code' ? { err: s.err } : {}),
    ...(s.ip.trim() ? { ip: s.ip.trim() } : {}),
    ...(range ?? {}),
    ...wirePaging(s, 100),
  };
}

/** The params of a call as shown in the detail drawer (pretty JSON, or the cut text as stored). */
export function paramsText(params: Record<string, unknown> | string): string {
  return typeof params === 'string' ? params : JSON.stringify(params, null, 2);
}

// ---------------------------------------------------------------------------------------------
// Web errors (issue 16): the web app's reported events, grouped, beside the action log (tab `web`)

export interface WebErrorState {
  current: number;
  pageSize: number;
  search: string;
  kind: WebEventKind | '';
  release: string;
  /** yyyy-mm-dd; '' = no bound. */
  from: string;
  to: string;
}

export const WEB_ERRORS_SPEC: ListSpec<WebErrorState> = {
  defaultPageSize: 20,
  pageSizes: PAGE_SIZES,
  maxPageSize: 100,
  readFilters: (q) => {
    const kind = q.get('kind') ?? '';
    return {
      kind: (WEB_EVENT_KINDS as readonly string[]).includes(kind) ? (kind as WebEventKind) : '',
      release: q.get('release') ?? '',
      from: dayParam(q.get('from')),
      to: dayParam(q.get('to')),
    };
  },
  writeFilters(s, q) {
    if (s.kind) q.set('kind', s.kind);
    if (s.release) q.set('release', s.release);
    if (s.from) q.set('from', s.from);
    if (s.to) q.set('to', s.to);
  },
};

/** The filters of the web error lists on the wire (the days as epoch ms of the last occurrence). */
export function webErrorFilters(s: Pick<WebErrorState, 'kind' | 'release' | 'from' | 'to'>) {
  const range = s.from && s.to ? dayRange(s.from <= s.to ? s.from : s.to, s.from <= s.to ? s.to : s.from) : undefined;
  return {
    ...(s.kind ? { kind: s.kind } : {}),
    ...(s.release ? { release: s.release } : {}),
    ...(range ?? {}),
  };
}

export function webErrorParams(s: WebErrorState) {
  return { ...webErrorFilters(s), ...wirePaging(s, 100) };
}
