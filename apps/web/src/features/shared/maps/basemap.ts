/**
 * Which basemap a map uses. Real tiles only when a tile URL is configured (build-time
 * `VITE_TILE_URL` or a runtime setting); otherwise the offline vector basemap of country
 * polygons bundled from world-atlas, so maps work with no network at all.
 */
export type Basemap =
  | { kind: 'tiles'; url: string; attribution?: string }
  | { kind: 'offline' };

export interface BasemapConfig {
  /** `import.meta.env.VITE_TILE_URL` at build time. */
  buildTileUrl?: string | undefined;
  /** A tile URL the server hands out at run time (wins over the build-time one). */
  runtimeTileUrl?: string | undefined;
  attribution?: string | undefined;
}

/** A usable Leaflet tile template: http(s) or protocol-relative, with {z}, {x} and {y}. */
export function isTileTemplate(url: string | undefined): url is string {
  if (!url) return false;
  const u = url.trim();
  return /^(https?:)?\/\//.test(u) && u.includes('{z}') && u.includes('{x}') && u.includes('{y}');
}

export function chooseBasemap(config: BasemapConfig): Basemap {
  for (const url of [config.runtimeTileUrl, config.buildTileUrl]) {
    if (isTileTemplate(url)) {
      return config.attribution ? { kind: 'tiles', url: url.trim(), attribution: config.attribution } : { kind: 'tiles', url: url.trim() };
    }
  }
  return { kind: 'offline' };
}

/** The basemap of this build (runtime setting: `window.__SUNWATCH_TILE_URL__`, if the server injects one). */
export function configuredBasemap(): Basemap {
  const runtime = typeof window === 'undefined' ? undefined : (window as { __SUNWATCH_TILE_URL__?: string }).__SUNWATCH_TILE_URL__;
  return chooseBasemap({
    buildTileUrl: import.meta.env.VITE_TILE_URL as string | undefined,
    runtimeTileUrl: runtime,
    attribution: import.meta.env.VITE_TILE_ATTRIBUTION as string | undefined,
  });
}

export interface GeoPoint {
  lat: number;
  lon: number;
}

/** A coordinate pair that can go on a map (numbers or wire strings; 0,0 counts as unset). */
export function toGeoPoint(lat: unknown, lon: unknown): GeoPoint | undefined {
  const la = typeof lat === 'string' ? Number(lat) : lat;
  const lo = typeof lon === 'string' ? Number(lon) : lon;
  if (typeof la !== 'number' || typeof lo !== 'number' || !Number.isFinite(la) || !Number.isFinite(lo)) return undefined;
  if (Math.abs(la) > 90 || Math.abs(lo) > 180 || (la === 0 && lo === 0)) return undefined;
  return { lat: la, lon: lo };
}

/** South-west / north-east corners around the points, padded; undefined without points. */
export function boundsOf(points: readonly GeoPoint[], pad = 0.5): [[number, number], [number, number]] | undefined {
  if (points.length === 0) return undefined;
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  return [
    [Math.max(-85, Math.min(...lats) - pad), Math.max(-180, Math.min(...lons) - pad)],
    [Math.min(85, Math.max(...lats) + pad), Math.min(180, Math.max(...lons) + pad)],
  ];
}
