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

/** A relative action URL (`/public/?…`, `/remote/?…`) on the chosen node; anything else unchanged. */
export function onNode(url: string, node: string = getNode()): string {
  if (!node || !/^\/(public|remote)\b/.test(url)) return url;
  return node + url;
}

/** fetch that sends action calls to the chosen node (the protocol client's `fetch` option). */
export const nodeFetch: typeof fetch = (input, init) =>
  fetch(typeof input === 'string' ? onNode(input) : input, init);
