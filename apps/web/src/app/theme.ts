/**
 * Skins of spec §2 (blue default, first in the list; pink is the classic one). The vendor's
 * account record has no skin field, so the choice is remembered per browser (localStorage
 * `sw.skin`), like the language. A skin is applied across the app twice: as antd theme tokens
 * (`skinTheme`, read by the ConfigProvider) and as the app's own CSS variables on the document
 * root (`--sw-primary`, `--sw-primary-bg`, `--sw-primary-border`; `data-skin` names the skin)
 * for the plain-CSS parts (loading spinner, header accent).
 */
import { useSyncExternalStore } from 'react';

export const SKINS = [
  { id: 'blue', color: '#1677ff', bg: '#e6f4ff', border: '#91caff' },
  { id: 'pink', color: '#eb2f96', bg: '#fff0f6', border: '#ffadd2' },
  { id: 'purple', color: '#722ed1', bg: '#f9f0ff', border: '#d3adf7' },
  { id: 'orange', color: '#fa8c16', bg: '#fff7e6', border: '#ffd591' },
  { id: 'green', color: '#52c41a', bg: '#f6ffed', border: '#b7eb8f' },
] as const;
export type SkinId = (typeof SKINS)[number]['id'];
export const SKIN_STORAGE_KEY = 'sw.skin';
export const DEFAULT_SKIN: SkinId = 'blue';

export function isSkin(v: unknown): v is SkinId {
  return SKINS.some((s) => s.id === v);
}

function read(): SkinId {
  try {
    const v = localStorage.getItem(SKIN_STORAGE_KEY);
    return isSkin(v) ? v : DEFAULT_SKIN;
  } catch {
    return DEFAULT_SKIN;
  }
}

let skin: SkinId = read();
const listeners = new Set<() => void>();

function skinOf(id: SkinId) {
  return SKINS.find((s) => s.id === id)!;
}

/** Writes the skin's CSS variables on the document root (no-op without a document). */
export function applySkinVariables(id: SkinId, root: HTMLElement | undefined = globalThis.document?.documentElement): void {
  if (!root) return;
  const s = skinOf(id);
  root.style.setProperty('--sw-primary', s.color);
  root.style.setProperty('--sw-primary-bg', s.bg);
  root.style.setProperty('--sw-primary-border', s.border);
  root.dataset.skin = id;
}

applySkinVariables(skin);

export function getSkin(): SkinId {
  return skin;
}

export function setSkin(next: SkinId): void {
  if (!isSkin(next)) return;
  skin = next;
  try {
    localStorage.setItem(SKIN_STORAGE_KEY, next);
  } catch {
    /* not persisted */
  }
  applySkinVariables(next);
  for (const l of listeners) l();
}

export function skinColor(id: SkinId): string {
  return skinOf(id).color;
}

/** The antd theme of a skin: primary, link and info colours, the selected menu item's tint. */
export function skinTheme(id: SkinId) {
  const s = skinOf(id);
  return {
    token: { colorPrimary: s.color, colorInfo: s.color, colorLink: s.color },
    components: { Menu: { itemSelectedBg: s.bg, itemSelectedColor: s.color } },
  };
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
