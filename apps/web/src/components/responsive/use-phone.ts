/**
 * Phone layout switch of the shell: below antd's `md` breakpoint (768 px) the area menu is a
 * drawer and the header folds into one menu. Read synchronously from matchMedia, so the first
 * render already has the right shell (no desktop flash on a phone).
 */
import { useSyncExternalStore } from 'react';

/** Widest viewport (CSS px) that gets the phone shell; antd's `md` starts at 768. */
export const PHONE_MAX_WIDTH = 767;
export const PHONE_QUERY = `(max-width: ${PHONE_MAX_WIDTH}px)`;

function mediaList(): MediaQueryList | undefined {
  return typeof window === 'undefined' || !window.matchMedia ? undefined : window.matchMedia(PHONE_QUERY);
}

function subscribe(onChange: () => void): () => void {
  const list = mediaList();
  if (!list) return () => {};
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function isPhoneViewport(): boolean {
  return mediaList()?.matches ?? false;
}

/** True while the viewport is phone-wide (≤ 767 px). */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, isPhoneViewport, () => false);
}
