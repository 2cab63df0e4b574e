/** Saves a file from an address through a temporary link (the browser's own download). */
export function saveUrlAs(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
