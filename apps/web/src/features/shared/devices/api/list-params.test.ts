import { describe, expect, it } from 'vitest';
import { deviceListParams, searchFromState, stateFromSearch, type DeviceListState } from './list-params';

const base: DeviceListState = {
  mode: 'card',
  current: 1,
  pageSize: 12,
  scope: 'device',
  search: '',
  statusFilter: 0,
  followed: false,
};

describe('device list paging params', () => {
  it('sends 0-based page and pagesize from antd paging', () => {
    expect(deviceListParams(base)).toEqual({ page: 0, pagesize: 12 });
    expect(deviceListParams({ ...base, current: 3, pageSize: 24 })).toEqual({ page: 2, pagesize: 24 });
  });
  it('sends the shifted status filter only when not "all"', () => {
    expect(deviceListParams({ ...base, statusFilter: 0 }).statusFilter).toBeUndefined();
    expect(deviceListParams({ ...base, statusFilter: 1 }).statusFilter).toBe(1);
  });
  it('searches devices by SN/alias and dataloggers by PN', () => {
    expect(deviceListParams({ ...base, search: ' SW23 ' })).toMatchObject({ search: 'SW23' });
    expect(deviceListParams({ ...base, search: 'W0001', scope: 'datalogger' })).toMatchObject({ pn: 'W0001' });
    expect(deviceListParams({ ...base, followed: true }).focus).toBe(1);
  });
  it('map mode asks for one full page', () => {
    expect(deviceListParams({ ...base, mode: 'map', current: 4 })).toEqual({ page: 0, pagesize: 50 });
  });
  it('round-trips through the address bar', () => {
    const s: DeviceListState = { ...base, mode: 'list', current: 2, search: 'x', statusFilter: 3, followed: true, pid: 7 };
    expect(stateFromSearch(searchFromState(s))).toEqual(s);
    expect(stateFromSearch(new URLSearchParams('mode=bogus&page=-2'))).toEqual(base);
  });
});
