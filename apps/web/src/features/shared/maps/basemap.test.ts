import { describe, expect, it } from 'vitest';
import { boundsOf, chooseBasemap, isTileTemplate, toGeoPoint } from './basemap';

describe('basemap choice', () => {
  it('falls back to the offline basemap without a tile URL', () => {
    expect(chooseBasemap({})).toEqual({ kind: 'offline' });
    expect(chooseBasemap({ buildTileUrl: '' })).toEqual({ kind: 'offline' });
    expect(chooseBasemap({ buildTileUrl: '   ', runtimeTileUrl: undefined })).toEqual({ kind: 'offline' });
  });
  it('rejects URLs that are not tile templates', () => {
    expect(isTileTemplate('https://tiles.example/map.png')).toBe(false);
    expect(chooseBasemap({ buildTileUrl: 'javascript:alert(1)//{z}{x}{y}' })).toEqual({ kind: 'offline' });
  });
  it('uses configured tiles, the runtime setting first', () => {
    const build = 'https://a.tiles.example/{z}/{x}/{y}.png';
    const runtime = '//b.tiles.example/{z}/{x}/{y}.png';
    expect(chooseBasemap({ buildTileUrl: build })).toEqual({ kind: 'tiles', url: build });
    expect(chooseBasemap({ buildTileUrl: build, runtimeTileUrl: runtime })).toEqual({ kind: 'tiles', url: runtime });
  });
  it('keeps only real coordinates and bounds them', () => {
    expect(toGeoPoint('52.37', '4.89')).toEqual({ lat: 52.37, lon: 4.89 });
    expect(toGeoPoint(0, 0)).toBeUndefined();
    expect(toGeoPoint('x', 1)).toBeUndefined();
    expect(toGeoPoint(95, 1)).toBeUndefined();
    expect(boundsOf([])).toBeUndefined();
    expect(boundsOf([{ lat: 10, lon: 20 }], 1)).toEqual([
      [9, 19],
      [11, 21],
    ]);
  });
});
