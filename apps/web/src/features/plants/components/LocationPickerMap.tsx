/**
 * Picks a plant's location on a Leaflet map (the app's basemap: configured tiles, else the
 * offline country atlas): a click puts the marker there, the marker can be dragged. Loaded
 * lazily with Leaflet (LocationPicker.tsx).
 */
import { useEffect, useMemo, useState } from 'react';
import type { FeatureCollection, Geometry } from 'geojson';
import L from 'leaflet';
import { GeoJSON, MapContainer, Marker, Pane, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { configuredBasemap, type GeoPoint } from '../../shared/maps/basemap';
import { loadWorld } from '../../shared/maps/offline-world';
import { roundCoordinate, wrapLongitude } from '../api/plant-form';

export interface LocationPickerMapProps {
  value: GeoPoint | undefined;
  onPick: (p: GeoPoint) => void;
  height?: number;
  /** Accessible name of the map. */
  label: string;
}

const OFFLINE_STYLE = { color: '#9fb3c8', weight: 0.6, fillColor: '#e8eef4', fillOpacity: 1 };
const SEA = '#c9dcec';

/** A pin drawn in CSS: no marker image to fetch (the Content-Security-Policy allows none). */
const PIN = L.divIcon({
  className: 'sw-location-pin',
  html: '<div style="width:22px;height:22px;border-radius:50% 50% 50% 0;background:#1677ff;border:2px solid #fff;transform:rotate(-45deg);box-shadow:0 1px 4px rgba(0,0,0,.4)"></div>',
  iconSize: [22, 22],
  iconAnchor: [11, 22],
});

const pointOf = (ll: L.LatLng): GeoPoint => ({ lat: roundCoordinate(ll.lat), lon: roundCoordinate(wrapLongitude(ll.lng)) });

function ClickToPick({ onPick }: { onPick: (p: GeoPoint) => void }) {
  useMapEvents({ click: (e) => onPick(pointOf(e.latlng)) });
  return null;
}

/** Centres the map on a point typed into the form (not on one picked on the map). */
function Follow({ point }: { point: GeoPoint | undefined }) {
  const map = useMap();
  const key = point ? `${point.lat},${point.lon}` : '';
  useEffect(() => {
    if (point && !map.getBounds().contains([point.lat, point.lon])) map.setView([point.lat, point.lon], Math.max(map.getZoom(), 4));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follow the point only
  }, [map, key]);
  useEffect(() => {
    const t = window.setTimeout(() => map.invalidateSize(), 0);
    return () => window.clearTimeout(t);
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
  return (
    <Pane name="sw-basemap" style={{ zIndex: 200 }}>
      <GeoJSON data={world} style={() => OFFLINE_STYLE} interactive={false} />
    </Pane>
  );
}

export default function LocationPickerMap({ value, onPick, height = 280, label }: LocationPickerMapProps) {
  const basemap = configuredBasemap();
  const handlers = useMemo(
    () => ({
      dragend: (e: L.DragEndEvent) => onPick(pointOf((e.target as L.Marker).getLatLng())),
    }),
    [onPick],
  );
  return (
    <div
      role="application"
      aria-label={label}
      data-testid="location-picker"
      data-basemap={basemap.kind}
      style={{ height, borderRadius: 8, overflow: 'hidden', cursor: 'crosshair' }}
    >
      <MapContainer
        center={value ? [value.lat, value.lon] : [25, 10]}
        zoom={value ? 4 : 1}
        minZoom={1}
        maxZoom={basemap.kind === 'offline' ? 6 : 18}
        worldCopyJump
        style={{ height: '100%', width: '100%', background: basemap.kind === 'offline' ? SEA : undefined }}
      >
        {basemap.kind === 'tiles' ? <TileLayer url={basemap.url} attribution={basemap.attribution} /> : <OfflineBasemap />}
        <ClickToPick onPick={onPick} />
        <Follow point={value} />
        {value && <Marker position={[value.lat, value.lon]} icon={PIN} draggable eventHandlers={handlers} />}
      </MapContainer>
    </div>
  );
}
