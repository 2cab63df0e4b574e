/** Skins of spec §2 (blue default first); stored in localStorage and applied as colorPrimary. */
import { useSyncExternalStore } from 'react';

export const SKINS = [
  { id: 'blue', color: '#1677ff' },
  { id: 'pink', color: '#eb2f96' },
  { id: 'purple', color: '#722ed1' },
  { id: 'orange', color: '#fa8c16' },
  { id: 'green', color: '#52c41a' },
] as const;
export type SkinId = (typeof SKINS)[number]['id'];
export const SKIN_STORAGE_KEY = 'sw.skin';

function read(): SkinId {
  try {
    const v = localStorage.getItem(SKIN_STORAGE_KEY);
    return SKINS.find((s) => s.id === v)?.id ?? 'blue';
  } catch {
    return 'blue';
  }
}

let skin: SkinId = read();
const listeners = new Set<() => void>();

export function getSkin(): SkinId {
  return skin;
}

export function setSkin(next: SkinId): void {
  skin = next;
  try {
    localStorage.setItem(SKIN_STORAGE_KEY, next);
  } catch {
    /* not persisted */
  }
  for (const l of listeners) l();
}

export function skinColor(id: SkinId): string {
  return SKINS.find((s) => s.id === id)!.color;
}

export function useSkin(): SkinId {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getSkin,
    getSkin,
  );
}
