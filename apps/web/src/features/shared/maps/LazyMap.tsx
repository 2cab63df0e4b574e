import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { MapViewProps } from './MapView';

const MapView = lazy(() => import('./MapView'));

/** The map, with Leaflet and the atlas fetched only when a map is shown. */
export function LazyMap(props: MapViewProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 480 }} />}>
      <MapView {...props} />
    </Suspense>
  );
}
export type { MapMarker } from './MapView';
