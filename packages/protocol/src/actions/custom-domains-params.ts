/** Values of the custom-domain actions (actions/custom-domains.ts), importable without the catalogue. */

/** The two pictures of a custom domain's entry page. */
export const CUSTOM_DOMAIN_IMAGE_KINDS = ['logo', 'background'] as const;
export type CustomDomainImageKind = (typeof CUSTOM_DOMAIN_IMAGE_KINDS)[number];

/** Largest stored picture (bytes): pictures live in the database, so they stay small. */
export const CUSTOM_DOMAIN_IMAGE_MAX_BYTES = 1024 * 1024;

/** Accepted picture file names (checked again by their bytes on the server). */
export const CUSTOM_DOMAIN_IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.svg', '.webp'] as const;

/** Stored picture types (detected from the bytes, never from the name). */
export const CUSTOM_DOMAIN_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp'] as const;
export type CustomDomainImageType = (typeof CUSTOM_DOMAIN_IMAGE_TYPES)[number];

/** Longest values of a custom domain's text fields (characters). */
export const CUSTOM_DOMAIN_TEXT_MAX = { host: 253, title: 60, phone: 32, email: 120, wechat: 64, name: 120 } as const;
