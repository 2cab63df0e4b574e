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

/**
 * The editable basic info of the personal page (editAccount `qname`, `cname`, `caddr`, `ctel`)
 * and its rules (spec §5: nickname 2–32; company name at most 64 characters, a company phone of
 * digits, spaces, `+ - ( )`, 3–32; an address at most 512). No markup brackets or control
 * characters in the texts. The server applies the same (account-fields.ts).
 */
export const PROFILE_RULES = {
  NICKNAME_MIN: 2,
  NICKNAME_MAX: 32,
  COMPANY_NAME_MAX: 64,
  COMPANY_ADDRESS_MAX: 512,
  COMPANY_PHONE: /^[0-9+\-() ]{3,32}$/,
} as const;

export type ProfileField = 'qname' | 'cname' | 'caddr' | 'ctel';
export type ProfileFieldError = 'length' | 'format';

// eslint-disable-next-line no-control-regex -- control characters are what this rejects
const UNSAFE = /[\u0000-\u001f\u007f<>]/;

/** Why `value` is refused for `field` (after trimming), or undefined when it is fine; empty clears (except the nickname). */
export function profileFieldError(field: ProfileField, raw: string): ProfileFieldError | undefined {
  const value = raw.trim();
  const n = [...value].length;
  switch (field) {
    case 'qname':
      if (n === 0) return undefined;
      if (n < PROFILE_RULES.NICKNAME_MIN || n > PROFILE_RULES.NICKNAME_MAX) return 'length';
      return UNSAFE.test(value) ? 'format' : undefined;
    case 'cname':
      if (n > PROFILE_RULES.COMPANY_NAME_MAX) return 'length';
      return UNSAFE.test(value) ? 'format' : undefined;
    case 'caddr':
      if (n > PROFILE_RULES.COMPANY_ADDRESS_MAX) return 'length';
      return UNSAFE.test(value) ? 'format' : undefined;
    case 'ctel':
      return n === 0 || PROFILE_RULES.COMPANY_PHONE.test(value) ? undefined : 'format';
  }
}
