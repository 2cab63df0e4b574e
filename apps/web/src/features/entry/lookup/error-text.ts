import { ApiCallError, errorMessageKey } from '@sunwatch/protocol';
import type { TFunction } from 'i18next';

/** The server's localised message of a failed call, else the catalogue's text of its code (spec §8). */
export function errorText(t: TFunction, e: unknown): string {
  if (e instanceof ApiCallError) return e.msg ?? t(errorMessageKey(e.err), { ns: 'errors' });
  return t(errorMessageKey(3), { ns: 'errors' });
}
