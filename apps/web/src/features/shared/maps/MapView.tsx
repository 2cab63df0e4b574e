/**
 * Leaflet map with status-coloured markers. Basemap: configured tiles, else the offline
 * country polygons (no network needed). Loaded lazily (see LazyMap.tsx).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Spin } from 'antd';
import type { FeatureCollection, Geometry } from 'geojson';
import { CircleMarker, GeoJSON, MapContainer, Pane, Popup, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { boundsOf, configuredBasemap, type GeoPoint } from './basemap';
import { loadWorld } from './offline-world';

export interface MapMarker extends GeoPoint {
  id: string;
  color: string;
  /** Popup content. */
  popup: ReactNode;
}

export interface MapViewProps {
  markers: readonly MapMarker[];
  height?: number | string;
}

const OFFLINE_STYLE = { color: '#9fb3c8', weight: 0.6, fillColor: '#e8eef4', fillOpacity: 1 };
const SEA = '#c9dcec';

/** The 1:110m atlas is coarse: closer than this it only shows straight lines. */
const OFFLINE_MAX_ZOOM = 6;

function FitBounds({ points, maxZoom }: { points: readonly GeoPoint[]; maxZoom: number }) {
  const map = useMap();
  const key = points.map((p) => `${p.lat},${p.lon}`).join(';');
  useEffect(() => {
    const b = boundsOf(points, points.length === 1 ? 4 : 1);
    if (b) map.fitBounds(b, { maxZoom });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refit only when the points change
  }, [map, key]);
  return null;
}

/** Keeps Leaflet's idea of the container size right when the layout around it changes. */
function TrackSize() {
  const map = useMap();
  useEffect(() => {
    const el = map.getContainer();
    const fix = () => map.invalidateSize();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(fix);
    observer?.observe(el);
    const t = window.setTimeout(fix, 0);
    return () => {
      observer?.disconnect();
      window.clearTimeout(t);
    };
  }, [map]);
  return null;
}

function OfflineBasemap() {
  const [world, setWorld] = useState<FeatureCollection<Geometry>>();
  useEffect(() => {
    let live = true;
    void loadWorld().then((w) => live && setWorld(w));
    return () => {
      live = false;
    };
  }, []);
  if (!world) return null;
  // Its own pane below the markers' overlay pane: the atlas arrives after the markers.
  return (
    <Pane name="sw-basemap" style={{ zIndex: 200 }}>
      <GeoJSON data={world} style={() => OFFLINE_STYLE} interactive={false} />
    </Pane>
  );
}

export default function MapView({ markers, height = 480 }: MapViewProps) {
  const basemap = configuredBasemap();
  const [ready, setReady] = useState(false);
  return (
    // a fixed height never takes more than 70 % of a (phone's) viewport, so the page still scrolls past it
    <div
      style={{ position: 'relative', height: typeof height === 'number' ? `min(${height}px, 70vh)` : height, borderRadius: 8, overflow: 'hidden' }}
      data-basemap={basemap.kind}
    >
      {!ready && (
        <Spin style={{ position: 'absolute', inset: 0, margin: 'auto', zIndex: 1000, height: 32 }} />
      )}
      <MapContainer
        center={[25, 10]}
        zoom={2}
        minZoom={1}
        maxZoom={basemap.kind === 'offline' ? OFFLINE_MAX_ZOOM : 18}
        worldCopyJump
        style={{ height: '100%', width: '100%', background: basemap.kind === 'offline' ? SEA : undefined }}
        whenReady={() => setReady(true)}
      >
        {basemap.kind === 'tiles' ? (
          <TileLayer url={basemap.url} attribution={basemap.attribution} />
        ) : (
          <OfflineBasemap />
        )}
        {markers.map((m) => (
          <CircleMarker
            key={m.id}
            center={[m.lat, m.lon]}
            radius={9}
            pathOptions={{ color: '#fff', weight: 2, fillColor: m.color, fillOpacity: 0.95 }}
          >
            <Popup>{m.popup}</Popup>
          </CircleMarker>
        ))}
        <FitBounds points={markers} maxZoom={basemap.kind === 'offline' ? 5 : 12} />
        <TrackSize />
      </MapContainer>
    </div>
  );
}
