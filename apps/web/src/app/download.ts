import { nodeUrl } from './node-url';

/**
 * Saves a file from an address through a temporary link (the browser's own download). A server
 * path (`/export/…`, `/files/…`) goes to the chosen server node, where the file was made (issue 12).
 */
export function saveUrlAs(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = nodeUrl(url);
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
