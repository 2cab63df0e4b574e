import { describe, expect, it } from 'vitest';
import { areaById, defaultRedirect, matchRoute } from '../../../app/routes';
import { deviceDetailPath, deviceListPath } from './paths';

describe('device pages in the route table', () => {
  it('puts the device list of each area where spec §2 has it', () => {
    expect(deviceListPath(areaById('adminNew'))).toBe('/adminNew/device');
    expect(deviceListPath(areaById('admin'))).toBe('/admin/device');
    expect(deviceListPath(areaById('generalNew'))).toBe('/generalNew/deviceno');
    expect(deviceListPath(areaById('general'))).toBe('/general/home');
    expect(deviceListPath(areaById('operator'))).toBe('/adminNewStatr/home/device');
  });
  it("opens the device detail under the operator's platform device list (issue 14)", () => {
    const path = deviceDetailPath(areaById('operator'), { pn: 'W0001', devcode: 2341, devaddr: 1, sn: 'SN1' })!;
    expect(path).toBe('/adminNewStatr/home/device/W0001/2341/1/SN1');
    const m = matchRoute(path)!;
    expect(m.chain.map((n) => n.path)).toEqual(['home', 'device']);
    expect(m.subPage?.params).toEqual({ pn: 'W0001', devcode: '2341', devaddr: '1', sn: 'SN1' });
  });
  it('matches the detail sub-page with its parent chain (same access) and parameters', () => {
    const path = deviceDetailPath(areaById('adminNew'), { pn: 'W0001', devcode: 2341, devaddr: 1, sn: 'SW 1' })!;
    expect(path).toBe('/adminNew/device/W0001/2341/1/SW%201');
    const m = matchRoute(path)!;
    expect(m.chain.map((n) => n.path)).toEqual(['device']);
    expect(m.chain[0]!.access).toEqual({ module: 'device_manag' });
    expect(m.subPage?.params).toEqual({ pn: 'W0001', devcode: '2341', devaddr: '1', sn: 'SW 1' });
    expect(defaultRedirect(m, path)).toBeUndefined();
  });
  it('rejects partial or longer detail paths and detail paths under other pages', () => {
    expect(matchRoute('/adminNew/device/W0001/2341/1')).toBeUndefined();
    expect(matchRoute('/adminNew/device/W0001/2341/1/SN/extra')).toBeUndefined();
    expect(matchRoute('/adminNew/alarm/W0001/2341/1/SN')).toBeUndefined();
  });
});
