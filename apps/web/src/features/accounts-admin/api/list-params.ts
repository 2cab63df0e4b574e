/**
 * The users list's state in the address bar (list kit) and its wire parameters (webQueryUsrEs).
 * Filters: role, group ('' all, 'none' ungrouped, else a group id), enabled, dealer code.
 */
import type { ParamsOf, Catalogue } from '@sunwatch/protocol';
import { intParam, wirePaging, type ListSpec, type PagedState } from '../../../components/list';

export const PAGE_SIZES = [10, 20, 50] as const;

export type EnabledFilter = 'all' | 'enabled' | 'disabled';

export interface UsersListState extends PagedState {
  /** -1: every role. */
  role: number;
  /** '' every group, 'none' ungrouped, else the group id. */
  group: string;
  enabled: EnabledFilter;
  dist: string;
}

export const USERS_LIST_SPEC: ListSpec<UsersListState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  readFilters(q) {
    const enabled = q.get('enabled');
    const group = q.get('group') ?? '';
    return {
      role: intParam(q.get('role'), -1),
      group: group === 'none' || /^\d+$/.test(group) ? group : '',
      enabled: enabled === 'enabled' || enabled === 'disabled' ? enabled : 'all',
      dist: q.get('dist') ?? '',
    };
  },
  writeFilters(s, q) {
    if (s.role >= 0) q.set('role', String(s.role));
    if (s.group) q.set('group', s.group);
    if (s.enabled !== 'all') q.set('enabled', s.enabled);
    if (s.dist.trim()) q.set('dist', s.dist.trim());
  },
};

export type UsersParams = ParamsOf<Catalogue['webQueryUsrEs']>;

/** Wire parameters of webQueryUsrEs for a list state. */
export function usersListParams(s: UsersListState): UsersParams {
  const p: UsersParams = { ...wirePaging(s), orderBy: 'ascUsr' };
  // one box: username, nickname, phone, e-mail or a held PN (issue 14: the server's `search`)
  if (s.search.trim()) p.search = s.search.trim();
  if (s.role >= 0) p.role = s.role;
  if (s.group === 'none') p.groupid = '';
  else if (s.group) p.groupid = Number(s.group);
  if (s.enabled !== 'all') p.enable = s.enabled === 'enabled';
  if (s.dist.trim()) p.dist = s.dist.trim();
  return p;
}
