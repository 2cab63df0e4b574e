/**
 * Personal settings (issue 12, spec §2 "Personal settings"): the avatar picture's URLs, shared by
 * the server (which stores and serves them) and the web (which shows the thumbnail).
 */

/** Where stored avatars are served: `/files/avatar/<32 hex>[-s].jpg|png`. */
export const AVATAR_ROUTE = '/files/avatar';
export const AVATAR_URL = /^\/files\/avatar\/[0-9a-f]{32}(?:-s)?\.(?:jpg|png)$/;

/** The thumbnail URL of a stored avatar (`…/<id>.png` → `…/<id>-s.png`); other URLs as they are. */
export function avatarThumb(photo: string | undefined | null): string | undefined {
  if (!photo) return undefined;
  if (!AVATAR_URL.test(photo) || /-s\.(?:jpg|png)$/.test(photo)) return photo;
  return photo.replace(/\.(jpg|png)$/, '-s.$1');
}

export interface AvatarDat {
  /** The stored picture (longest side at most 1024 px): the value for editAccount `photo`. */
  photo: string;
  /** Its thumbnail (fits 128 × 128). */
  thumb: string;
  width: number;
  height: number;
}
