/**
 * The alarm list's state in the address bar (list kit: `page`, `size`, `q` = fuzzy PN or SN) plus
 * its own filters, and its wire parameters (webQueryPlantsWarning):
 *
 * - `tab`: `current` (ongoing alarms, the default), `history` (ended ones) or `rules`;
 * - `pid` one plant, `pn` one datalogger, `sn` one device (exact);
 * - `level` alarm types as CSV of levels (0 warning, 1 error, 2 fault, 3 offline);
 * - `handle` 0 untreated, 1 processed (absent: both);
 * - `atype` one device type of alarm (spec §3);
 * - `from`, `to` occurrence days "YYYY-MM-DD" (both or neither), read in the browser's timezone;
 * - `hidden=1` also lists the alarms the account's filter rules hide.
 */
import type { AlarmDeviceType, Catalogue, ParamsOf } from '@sunwatch/protocol';
import { intParam, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { DEVICE_TYPES } from '../model/vocabulary';

export const PAGE_SIZES = [10, 20, 50] as const;
export const ALARM_TABS = ['current', 'history', 'rules'] as const;
export type AlarmTab = (typeof ALARM_TABS)[number];

export interface AlarmListState extends PagedState {
  tab: AlarmTab;
  pid: number;
  pn: string;
  sn: string;
  levels: number[];
  /** -1 both, 0 untreated, 1 processed. */
  handle: number;
  atype: AlarmDeviceType | '';
  from: string;
  to: string;
  showHidden: boolean;
  /** One alarm by id (an alarm mail links here with `?id=`), 0 = none. */
  id: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readLevels(v: string | null): number[] {
  const out = (v ?? '')
    .split(',')
    .filter((x) => /^[0-3]$/.test(x))
    .map(Number);
  return [...new Set(out)].sort();
}

export const ALARM_LIST_SPEC: ListSpec<AlarmListState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  readFilters(q) {
    const tab = q.get('tab');
    const atype = q.get('atype') ?? '';
    const handle = intParam(q.get('handle'), -1);
    const from = q.get('from') ?? '';
    const to = q.get('to') ?? '';
    const range = DAY.test(from) && DAY.test(to) && from <= to;
    return {
      tab: (ALARM_TABS as readonly string[]).includes(tab ?? '') ? (tab as AlarmTab) : 'current',
      pid: intParam(q.get('pid'), 0),
      pn: (q.get('pn') ?? '').trim(),
      sn: (q.get('sn') ?? '').trim(),
      levels: readLevels(q.get('level')),
      handle: handle === 0 || handle === 1 ? handle : -1,
      atype: (DEVICE_TYPES as readonly string[]).includes(atype) ? (atype as AlarmDeviceType) : '',
      from: range ? from : '',
      to: range ? to : '',
      showHidden: q.get('hidden') === '1',
      id: intParam(q.get('id'), 0),
    };
  },
  writeFilters(s, q) {
    if (s.tab !== 'current') q.set('tab', s.tab);
    if (s.pid) q.set('pid', String(s.pid));
    if (s.pn) q.set('pn', s.pn);
    if (s.sn) q.set('sn', s.sn);
    if (s.levels.length) q.set('level', s.levels.join(','));
    if (s.handle >= 0) q.set('handle', String(s.handle));
    if (s.atype) q.set('atype', s.atype);
    if (s.from && s.to) {
      q.set('from', s.from);
      q.set('to', s.to);
    }
    if (s.showHidden) q.set('hidden', '1');
    if (s.id > 0) q.set('id', String(s.id));
  },
};

export type AlarmListParams = ParamsOf<Catalogue['webQueryPlantsWarning']>;

/** The day after "YYYY-MM-DD" (the window's exclusive end). */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The browser's offset east of UTC in seconds (the date filter is read in the viewer's days). */
export function browserTz(now: Date = new Date()): number {
  return -now.getTimezoneOffset() * 60;
}

/** Wire parameters of webQueryPlantsWarning for a list state (`tz`: the viewer's offset). */
export function alarmListParams(s: AlarmListState, tz: number): AlarmListParams {
  // one alarm (a mail's link) shows whether it is ongoing or ended
  const p: AlarmListParams =
    s.id > 0 ? { ...wirePaging(s), id: s.id } : { ...wirePaging(s), state: s.tab === 'history' ? 2 : 1 };
  const search = s.search.trim();
  if (search) p.search = search;
  if (s.pid) p.plantid = s.pid;
  if (s.pn) p.pn = s.pn;
  if (s.sn) p.sn = s.sn;
  if (s.levels.length) p.level = s.levels.join(',');
  if (s.handle >= 0) p.handle = s.handle;
  if (s.atype) p.atype = s.atype;
  if (s.from && s.to) {
    p.sdate = s.from;
    p.edate = nextDay(s.to);
    p.tz = tz;
  }
  if (s.showHidden) p.hidden = 1;
  return p;
}
