import { createHash } from 'node:crypto';
import { ApiError, CUSTOM_DOMAIN_IMAGE_MAX_BYTES, type CustomDomainImageType } from '@sunwatch/protocol';

/** The file extension a stored picture is served under (the type decides, not the upload's name). */
export const IMAGE_EXT: Record<CustomDomainImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'image/webp': 'webp',
};

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

/** Elements, attributes and values an svg logo never needs and that could run or fetch something. */
const SVG_REFUSED: readonly RegExp[] = [
  /<\s*script/i,
  /<\s*foreignobject/i,
  /<\s*(iframe|embed|object|audio|video|canvas|html|body|link|meta|base|form|input|animate|set)\b/i,
  /<!doctype|<!entity/i,
  /[\s"'/]on[a-z]+\s*=/i,
  /javascript\s*:|vbscript\s*:/i,
  /@import/i,
  // references that are not same-document (#id) or inline raster pictures
  /(?:href|src)\s*=\s*["']?\s*(?!#|data:image\/(?:png|jpeg|gif|webp);)/i,
  /url\(\s*["']?\s*(?!#|data:image\/(?:png|jpeg|gif|webp);)/i,
];

/** An svg document: UTF-8 text whose first element (after an XML declaration and comments) is <svg>. */
function isSafeSvg(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return false; // not UTF-8
  const head = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/i, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .trimStart();
  if (!/^<svg[\s>]/i.test(head)) return false;
  return !SVG_REFUSED.some((re) => re.test(text));
}

/** The type of a picture from its bytes; undefined when it is none of png, jpg, webp or a safe svg. */
export function detectImageType(bytes: Buffer): CustomDomainImageType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  if (isSafeSvg(bytes)) return 'image/svg+xml';
  return undefined;
}

export interface CheckedImage {
  bytes: Buffer;
  type: CustomDomainImageType;
  sha: string;
}

/**
 * A picture as stored: at most CUSTOM_DOMAIN_IMAGE_MAX_BYTES (err 13), a png, jpg or webp by its
 * signature or an svg without scripts, handlers, external references or entities (err 6 `file`).
 */
export function checkImage(bytes: Buffer): CheckedImage {
  if (bytes.length === 0) throw new ApiError(7, 'file');
  if (bytes.length > CUSTOM_DOMAIN_IMAGE_MAX_BYTES) throw new ApiError(13, 'file');
  const type = detectImageType(bytes);
  if (!type) throw new ApiError(6, 'file');
  return { bytes, type, sha: createHash('sha256').update(bytes).digest('hex') };
}

/** The URL the entry page shows: the digest in the query makes a new picture a new URL. */
export function domainImageUrl(host: string, kind: string, type: string, sha: string): string {
  const ext = IMAGE_EXT[type as CustomDomainImageType] ?? 'png';
  return `/branding/${encodeURIComponent(host)}/${kind}.${ext}?v=${sha.slice(0, 12)}`;
}
