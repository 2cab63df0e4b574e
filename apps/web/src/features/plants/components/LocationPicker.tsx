import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import type { LocationPickerMapProps } from './LocationPickerMap';

const LocationPickerMap = lazy(() => import('./LocationPickerMap'));

/** The location map, with Leaflet and the atlas fetched only when the form shows it. */
export function LocationPicker(props: LocationPickerMapProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 280 }} />}>
      <LocationPickerMap {...props} />
    </Suspense>
  );
}
