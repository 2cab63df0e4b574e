/**
 * Leaflet map with status-coloured markers. Basemap: configured tiles, else the offline
 * country polygons (no network needed). Loaded lazily (see LazyMap.tsx).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Spin } from 'antd';
import type { FeatureCollection, Geometry } from 'geojson';
import { CircleMarker, GeoJSON, MapContainer, Popup, TileLayer, useMap } from 'react-leaflet';
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

function FitBounds({ points }: { points: readonly GeoPoint[] }) {
  const map = useMap();
  const key = points.map((p) => `${p.lat},${p.lon}`).join(';');
  useEffect(() => {
    const b = boundsOf(points, points.length === 1 ? 3 : 1);
    if (b) map.fitBounds(b, { maxZoom: 8 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refit only when the points change
  }, [map, key]);
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
  return <GeoJSON data={world} style={() => OFFLINE_STYLE} interactive={false} />;
}

export default function MapView({ markers, height = 480 }: MapViewProps) {
  const basemap = configuredBasemap();
  const [ready, setReady] = useState(false);
  return (
    <div style={{ position: 'relative', height, borderRadius: 8, overflow: 'hidden' }} data-basemap={basemap.kind}>
      {!ready && (
        <Spin style={{ position: 'absolute', inset: 0, margin: 'auto', zIndex: 1000, height: 32 }} />
      )}
      <MapContainer
        center={[25, 10]}
        zoom={2}
        minZoom={1}
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
        <FitBounds points={markers} />
      </MapContainer>
    </div>
  );
}
