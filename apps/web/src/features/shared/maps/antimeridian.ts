/**
 * Antimeridian repair for the offline basemap. world-atlas polygons are spherical: a ring that
 * crosses the 180° meridian (Russia's Chukotka, Fiji) jumps from +180 to −180, and Antarctica's
 * ring runs once around the pole. Drawn flat by Leaflet, such an edge spans the whole map as a
 * stray horizontal line. Here every such ring is unwrapped to continuous longitudes (closed
 * along the pole when it encircles one), cut into 360°-wide windows and shifted back into
 * [−180, 180], so no edge is longer than half the world.
 */
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Polygon, Position } from 'geojson';

type Ring = Position[];

/** An edge longer than this in longitude crosses the antimeridian. */
const MAX_SPAN = 180;

/** True when some edge of the ring spans more than 180° of longitude. */
export function crossesAntimeridian(ring: readonly Position[]): boolean {
  for (let i = 1; i < ring.length; i++) {
    if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > MAX_SPAN) return true;
  }
  return false;
}

/** Longitudes made continuous (each step ≤ 180°); a ring around a pole is closed along it. */
function unwrap(ring: readonly Position[]): Ring {
  const out: Ring = [];
  for (const p of ring) {
    let lon = p[0]!;
    const prev = out[out.length - 1];
    if (prev) {
      while (lon - prev[0]! > MAX_SPAN) lon -= 360;
      while (lon - prev[0]! < -MAX_SPAN) lon += 360;
    }
    out.push([lon, p[1]!]);
  }
  const first = out[0]!;
  const last = out[out.length - 1]!;
  if (out.length > 1 && Math.abs(last[0]! - first[0]!) > MAX_SPAN) {
    // Circles a pole: the closing point is the start one turn further. Close via the pole.
    const meanLat = out.reduce((s, p) => s + p[1]!, 0) / out.length;
    const pole = meanLat < 0 ? -90 : 90;
    // along the pole in steps of at most 90°, so that no edge spans the map there either
    const steps = Math.ceil(Math.abs(last[0]! - first[0]!) / 90);
    for (let i = 0; i <= steps; i++) out.push([last[0]! + ((first[0]! - last[0]!) * i) / steps, pole]);
    out.push([first[0]!, first[1]!]);
  }
  return out;
}

/** Sutherland–Hodgman: the part of a closed ring on one side of the vertical line x = at. */
function clipHalf(ring: readonly Position[], at: number, keepAbove: boolean): Ring {
  const inside = (p: Position) => (keepAbove ? p[0]! >= at : p[0]! <= at);
  const cross = (a: Position, b: Position): Position => {
    const t = (at - a[0]!) / (b[0]! - a[0]!);
    return [at, a[1]! + t * (b[1]! - a[1]!)];
  };
  const out: Ring = [];
  const pts = ring.slice(0, -1);
  for (let i = 0; i < pts.length; i++) {
    const cur = pts[i]!;
    const prev = pts[(i + pts.length - 1) % pts.length]!;
    if (inside(cur)) {
      if (!inside(prev)) out.push(cross(prev, cur));
      out.push(cur);
    } else if (inside(prev)) {
      out.push(cross(prev, cur));
    }
  }
  if (out.length > 0) out.push([...out[0]!]);
  return out;
}

/** Planar area of a closed ring (degrees², unsigned). */
export function ringArea(ring: readonly Position[]): number {
  let s = 0;
  for (let i = 1; i < ring.length; i++) s += ring[i - 1]![0]! * ring[i]![1]! - ring[i]![0]! * ring[i - 1]![1]!;
  return Math.abs(s) / 2;
}

/** The ring's parts in the window [west, west + 360], shifted by `shift`. */
function windowPart(ring: Ring, west: number, shift: number): Ring | undefined {
  const part = clipHalf(clipHalf(ring, west, true), west + 360, false);
  if (part.length < 4 || ringArea(part) < 1e-9) return undefined;
  return part.map((p) => [p[0]! + shift, p[1]!]);
}

/** One polygon (outer ring + holes) as polygons inside [−180, 180] with no antimeridian edge. */
export function splitPolygon(rings: readonly Position[][]): Position[][][] {
  if (!rings.some(crossesAntimeridian)) return [rings.map((r) => r.map((p) => [...p]))];
  const unwrapped = rings.map(unwrap);
  const lons = unwrapped.flat().map((p) => p[0]!);
  const kMin = Math.floor((Math.min(...lons) + 180) / 360);
  const kMax = Math.ceil((Math.max(...lons) + 180) / 360) - 1;
  const out: Position[][][] = [];
  for (let k = kMin; k <= kMax; k++) {
    const west = -180 + 360 * k;
    const [outer, ...holes] = unwrapped;
    const shell = windowPart(outer!, west, -360 * k);
    if (!shell) continue;
    const inner = holes.map((h) => windowPart(h, west, -360 * k)).filter((h): h is Ring => h !== undefined);
    out.push([shell, ...inner]);
  }
  return out;
}

/** A geometry with every (multi)polygon split at the antimeridian; other geometries unchanged. */
export function splitGeometry(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon') {
    const parts = splitPolygon(geometry.coordinates);
    return parts.length === 1
      ? ({ type: 'Polygon', coordinates: parts[0]! } satisfies Polygon)
      : ({ type: 'MultiPolygon', coordinates: parts } satisfies MultiPolygon);
  }
  if (geometry.type === 'MultiPolygon') {
    return { type: 'MultiPolygon', coordinates: geometry.coordinates.flatMap(splitPolygon) } satisfies MultiPolygon;
  }
  return geometry;
}

export function splitAtAntimeridian(world: FeatureCollection<Geometry>): FeatureCollection<Geometry> {
  return {
    ...world,
    features: world.features.map((f): Feature<Geometry> =>
      f.geometry ? { ...f, geometry: splitGeometry(f.geometry) } : f,
    ),
  };
}
