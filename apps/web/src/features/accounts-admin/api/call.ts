/**
 * Calls of the account screens whose parameters may be EMPTY on purpose: the vendor pages use an
 * empty value to mean something (`groupid=` ungrouped / out of any group, `cname=` clears a field),
 * while the app's client drops empty values. Same signing as the client (protocol `signCall` over
 * the tail, fresh timestamp salt); uploads go through `uploadAction` (multipart, with progress).
 */
import {
  ApiCallError,
  errorDesc,
  signCall,
  timestampSalts,
  type ActionName,
  type Catalogue,
  type Envelope,
  type ParamsOf,
  type ResultOf,
} from '@sunwatch/protocol';
import { clearSession, getSession } from '../../../app/session';
import { entryRedirectPath } from '../../../app/api';
import { currentLocale } from '../../../i18n';

type Value = string | number | boolean | null | undefined;
const salt = timestampSalts();

/** Like the client's encoding, but an empty string is sent (`&k=`); only undefined/null are left out. */
export function encodeKeepingEmpty(params: Record<string, Value>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('');
}

/** The signed query of a call (exported for the tests). */
export function signedQuery(
  name: string,
  params: Record<string, Value>,
  session: { secret: string; token: string },
  s: string,
  locale: string,
): string {
  const tail = `&action=${encodeURIComponent(name)}${encodeKeepingEmpty({ source: 1, ...params, i18n: locale })}`;
  return `sign=${signCall(s, session.secret, session.token, tail)}&salt=${s}&token=${session.token}${tail}`;
}

function authFailed(): void {
  clearSession();
  window.location.assign(entryRedirectPath(window.location.pathname + window.location.search));
}

function parse<T>(text: string): T {
  let env: Envelope<T>;
  try {
    env = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new ApiCallError(3, errorDesc(3));
  }
  if (env.err !== 0) {
    if (env.err === 10) authFailed();
    throw new ApiCallError(env.err, env.desc, env.msg);
  }
  return env.dat as T;
}

export async function adminCall<N extends ActionName>(
  name: N,
  params: ParamsOf<Catalogue[N]>,
): Promise<ResultOf<Catalogue[N]>> {
  const session = getSession();
  if (!session) throw new ApiCallError(10, errorDesc(10));
  const q = signedQuery(name, params as Record<string, Value>, session, salt(), currentLocale());
  let res: Response;
  try {
    res = await fetch(`/public/?${q}`, { credentials: 'same-origin' });
  } catch {
    throw new ApiCallError(3, errorDesc(3));
  }
  return parse<ResultOf<Catalogue[N]>>(await res.text());
}

export interface UploadOptions {
  /** 0…100 while the file goes up. */
  onProgress?: (percent: number) => void;
}

/** A signed multipart upload of one file (`file` field) to an upload action, with progress. */
export function uploadAction<N extends ActionName>(
  name: N,
  params: ParamsOf<Catalogue[N]>,
  file: Blob,
  fileName: string,
  options: UploadOptions = {},
): Promise<ResultOf<Catalogue[N]>> {
  const session = getSession();
  if (!session) return Promise.reject(new ApiCallError(10, errorDesc(10)));
  const q = signedQuery(name, params as Record<string, Value>, session, salt(), currentLocale());
  const body = new FormData();
  body.append('file', file, fileName);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/public/?${q}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiCallError(3, errorDesc(3)));
    xhr.onload = () => {
      options.onProgress?.(100);
      try {
        resolve(parse<ResultOf<Catalogue[N]>>(xhr.responseText));
      } catch (e) {
        reject(e instanceof Error ? e : new ApiCallError(3, errorDesc(3)));
      }
    };
    xhr.send(body);
  });
}

/**
 * The same call for generic helpers (the mutation hook): the action's literal name is at the
 * helper's call site (`useAdminMutation('addDist')`), where the route-permission scan reads it.
 */
export const sendAction = adminCall;
