import { defineAction, result, UPLOAD_RULES } from './define.js';
import { actionParams } from './common.js';

/**
 * Personal settings (issue 12, spec §2 "Personal settings"): the avatar picture. The vendor's
 * `editAccount` takes a `photo` URL; this action stores the uploaded picture and returns that
 * URL (and its server-made thumbnail), which the client then saves with `editAccount photo=`.
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

export const uploadAvatar = defineAction({
  name: 'uploadAvatar',
  summary:
    'Sunwatch: upload an avatar picture for the caller (multipart `file`, jpg/png ≤ 8 MB, checked by its bytes); ' +
    'returns its URL and thumbnail; save it with editAccount photo=.',
  params: actionParams({}),
  access: { auth: 'signed', permission: null },
  mutates: true,
  upload: UPLOAD_RULES.image,
  result: result<AvatarDat>(),
});
