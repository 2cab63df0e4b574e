import { describe, expect, it } from 'vitest';
import type { Geometry, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { crossesAntimeridian, ringArea, splitGeometry, splitPolygon } from './antimeridian';
import { loadWorld } from './offline-world';

function rings(g: Geometry): Position[][] {
  if (g.type === 'Polygon') return g.coordinates;
  if (g.type === 'MultiPolygon') return g.coordinates.flat();
  return [];
}

function maxEdgeSpan(ring: readonly Position[]): number {
  let max = 0;
  for (let i = 1; i < ring.length; i++) max = Math.max(max, Math.abs(ring[i]![0]! - ring[i - 1]![0]!));
  return max;
}

describe('antimeridian split', () => {
  it('cuts a square across 180° into one part on each side', () => {
    const square = [
      [170, -10],
      [-170, -10],
      [-170, 10],
      [170, 10],
      [170, -10],
    ];
    expect(crossesAntimeridian(square)).toBe(true);
    const parts = splitPolygon([square]);
    expect(parts).toHaveLength(2);
    const spans = parts.map((p) => [Math.min(...p[0]!.map((q) => q[0]!)), Math.max(...p[0]!.map((q) => q[0]!))]);
    expect(spans).toContainEqual([170, 180]);
    expect(spans).toContainEqual([-180, -170]);
    for (const p of parts) expect(ringArea(p[0]!)).toBeCloseTo(200, 6);
  });

  it('leaves a polygon that does not cross untouched', () => {
    const square = [
      [10, 10],
      [20, 10],
      [20, 20],
      [10, 10],
    ];
    expect(splitGeometry({ type: 'Polygon', coordinates: [square] })).toEqual({
      type: 'Polygon',
      coordinates: [square],
    });
  });

  it('closes a ring around the south pole along the pole', () => {
    // a band around Antarctica drawn as one ring: east along −70°, then the 180 → −180 jump
    const ring: Position[] = [];
    for (let lon = -180; lon <= 180; lon += 30) ring.push([lon, -70]);
    ring.push([-180, -70]);
    const parts = splitPolygon([ring]);
    expect(parts).toHaveLength(1);
    const lats = parts[0]![0]!.map((p) => p[1]!);
    expect(Math.min(...lats)).toBe(-90);
    expect(maxEdgeSpan(parts[0]![0]!)).toBeLessThanOrEqual(180);
    expect(ringArea(parts[0]![0]!)).toBeCloseTo(360 * 20, 6);
  });

  it('the offline world has no ring edge spanning more than 180° and keeps every country', async () => {
    const raw = (await import('world-atlas/countries-110m.json')) as unknown as {
      default: Topology<{ countries: GeometryCollection }>;
    };
    const topo = raw.default;
    const before = feature(topo, topo.objects.countries);
    // the atlas really has crossing rings (Russia, Fiji, Antarctica), else this test proves nothing
    const crossing = before.features
      .filter((f) => rings(f.geometry).some(crossesAntimeridian))
      .map((f) => (f.properties as { name?: string } | null)?.name);
    expect(crossing).toEqual(expect.arrayContaining(['Russia', 'Fiji', 'Antarctica']));

    const world = await loadWorld();
    expect(world.features).toHaveLength(before.features.length);
    for (const f of world.features) {
      for (const ring of rings(f.geometry)) {
        expect(maxEdgeSpan(ring), `${f.properties?.name as string}`).toBeLessThanOrEqual(180);
        for (const p of ring) expect(Math.abs(p[0]!)).toBeLessThanOrEqual(180);
      }
    }
    // Russia still reaches both sides of the antimeridian (Chukotka east of 180° is kept)
    const russia = world.features.find((f) => f.properties?.name === 'Russia')!;
    const lons = rings(russia.geometry)
      .flat()
      .map((p) => p[0]!);
    expect(Math.min(...lons)).toBeLessThan(-170);
    expect(Math.max(...lons)).toBeGreaterThan(170);
  });
});
