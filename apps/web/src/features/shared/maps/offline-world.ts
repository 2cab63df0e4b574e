/**
 * The offline basemap: world-atlas 1:110m country polygons (TopoJSON) turned into GeoJSON.
 * Loaded on demand so the atlas rides in its own chunk; rings crossing the antimeridian are
 * split (antimeridian.ts).
 */
import type { FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { splitAtAntimeridian } from './antimeridian';

let cached: Promise<FeatureCollection<Geometry>> | undefined;

export function loadWorld(): Promise<FeatureCollection<Geometry>> {
  cached ??= import('world-atlas/countries-110m.json').then((m) => {
    const topo = (m.default ?? m) as unknown as Topology<{ countries: GeometryCollection }>;
    // split at the antimeridian: Leaflet draws flat, a ±180° jump would be a line across the map
    return splitAtAntimeridian(feature(topo, topo.objects.countries) as FeatureCollection<Geometry>);
  });
  return cached;
}
