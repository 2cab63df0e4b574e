/**
 * The operator's platform device list (issue 14; protocol `queryFleetDevices` in actions/devices.ts,
 * docs/operator/fleet.md): its state in the address bar (list kit: `page`, `size`, `q` = PN, SN,
 * devcode or owner; `status`, `vendor`) and its server-paged query.
 */
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { intParam, usePagedQuery, wirePaging, type ListSpec, type PagedState } from '../../../components/list';

export const FLEET_PAGE_SIZES = [20, 50, 100] as const;

export interface FleetDeviceListState extends PagedState {
  /** 0 all, else device status + 1 (statusFromListFilter). */
  statusFilter: number;
  /** 0: every manufacturer. */
  vendor: number;
}

export const FLEET_DEVICE_LIST_SPEC: ListSpec<FleetDeviceListState> = {
  defaultPageSize: 20,
  pageSizes: FLEET_PAGE_SIZES,
  maxPageSize: 100,
  readFilters(q) {
    return { statusFilter: intParam(q.get('status'), 0), vendor: intParam(q.get('vendor'), 0) };
  },
  writeFilters(s, q) {
    if (s.statusFilter) q.set('status', String(s.statusFilter));
    if (s.vendor) q.set('vendor', String(s.vendor));
  },
};

export type FleetDeviceParams = ParamsOf<Catalogue['queryFleetDevices']>;

/** Wire parameters of queryFleetDevices for a list state. */
export function fleetDeviceParams(s: FleetDeviceListState): FleetDeviceParams {
  const p: FleetDeviceParams = { ...wirePaging(s, 100) };
  const search = s.search.trim();
  if (search) p.search = search;
  if (s.statusFilter) p.statusFilter = s.statusFilter;
  if (s.vendor) p.vendorUid = s.vendor;
  return p;
}

export function useFleetDevices(params: FleetDeviceParams) {
  return usePagedQuery(['fleetDevices', params], () => api.call('queryFleetDevices', params));
}

/** The manufacturers (role 1) of the filter, first 50 by name. */
export function useFleetManufacturers() {
  return usePagedQuery(['fleetDevices', 'makers'], () =>
    api.call('webQueryUsrEs', { role: 1, pagesize: 50, orderBy: 'ascUsr' }),
  );
}
