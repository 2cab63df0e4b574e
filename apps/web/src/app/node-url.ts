/**
 * The chosen server node (spec §4 "Node change", §7 "A chosen node host cookie switches the base
 * URL"): the node's origin in the cookie `sw_node` ('' or no cookie = the server that served the
 * page). The web app's API client sends every call to `<node>/public/` (app/api.ts `nodeFetch`).
 */
export const NODE_COOKIE = 'sw_node';
/** A year, the spec's default cookie lifetime (§8). */
const MAX_AGE = 31_536_000;

/** Only an http(s) origin is ever used as an API base. */
export function isNodeOrigin(v: string): boolean {
  return /^https?:\/\/[^/?#\s]+$/i.test(v);
}

export function getNode(): string {
  if (typeof document === 'undefined') return '';
  const m = document.cookie.match(new RegExp(`(?:^|; )${NODE_COOKIE}=([^;]*)`));
  const v = m ? decodeURIComponent(m[1]!) : '';
  return isNodeOrigin(v) ? v : '';
}

export function setNode(url: string): void {
  if (!url || !isNodeOrigin(url)) {
    clearNode();
    return;
  }
  document.cookie = `${NODE_COOKIE}=${encodeURIComponent(url)}; path=/; max-age=${MAX_AGE}; samesite=lax`;
}

export function clearNode(): void {
  document.cookie = `${NODE_COOKIE}=; path=/; max-age=0; samesite=lax`;
}

/**
 * The paths a chosen node serves for this account: the action endpoint (calls and multipart
 * uploads), the signed export and report downloads, and the stored files (avatars, plant pictures).
 * Everything else (the web app, the entry page's own services, branding assets) stays on the page's
 * own server.
 */
const NODE_PATH = /^\/(?:public|remote)(?:[/?#]|$)|^\/(?:export|files)\//;

/**
 * THE URL builder of the web app (issue 12): a server-relative URL on the chosen node, or unchanged
 * when no node is chosen, when the URL is absolute, or when it is not one of the node's paths.
 * The API client's fetch, uploads (`app/upload.ts`) and download links (`app/download.ts`) all go
 * through it; nothing else knows the node base.
 */
export function nodeUrl(url: string, node: string = getNode()): string {
  if (!node || !isNodeOrigin(node) || !NODE_PATH.test(url)) return url;
  return node + url;
}

/** A stored file's address (avatar, plant picture) for an <img>, on the chosen node; undefined stays undefined. */
export function fileUrl(path: string | undefined): string | undefined {
  return path ? nodeUrl(path) : path;
}

/** fetch that sends action calls to the chosen node (the protocol client's `fetch` option). */
export const nodeFetch: typeof fetch = (input, init) => fetch(typeof input === 'string' ? nodeUrl(input) : input, init);
