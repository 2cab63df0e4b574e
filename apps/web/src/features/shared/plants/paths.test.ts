import { describe, expect, it } from 'vitest';
import { areaById, matchRoute, PLANT_PAGE } from '../../../app/routes';
import { plantPagePath, plantPathFrom, projectListPath } from './paths';

describe('plant page paths', () => {
  it('live under the project list of each new area; the classic areas have none', () => {
    expect(plantPagePath(areaById('generalNew'), 12)).toBe('/generalNew/project/12');
    expect(plantPagePath(areaById('adminNew'), 3)).toBe('/adminNew/project/3');
    expect(plantPagePath(areaById('general'), 3)).toBeUndefined();
    expect(plantPagePath(areaById('admin'), 3)).toBeUndefined();
    expect(plantPagePath(areaById('adminNew'), 0)).toBeUndefined();
    expect(projectListPath(areaById('generalNew'))).toBe('/generalNew/project');
    expect(plantPathFrom('/adminNew/device/SW1/2341/1/SN1', 5)).toBe('/adminNew/project/5');
  });

  it('match the route table as the plant page', () => {
    const m = matchRoute('/generalNew/project/12');
    expect(m?.subPage?.page).toBe(PLANT_PAGE);
    expect(m?.subPage?.params).toEqual({ pid: '12' });
    expect(matchRoute('/generalNew/project')?.subPage).toBeUndefined();
  });
});
