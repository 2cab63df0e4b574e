/** The last path the guard sent to /404, for the error log of the 404 page. */
let last: string | undefined;

export function rememberNotFound(path: string): void {
  last = path;
}

export function lastNotFound(): string | undefined {
  return last;
}
