import { signCall, type Envelope } from '@sunwatch/protocol';
import { encodePairs } from '../harness.js';
import type { WireParams } from './model.js';

export interface Session {
  token: string;
  secret: string;
}

export interface WireFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * One call over HTTP like a real client: the query string signed over every parameter with the
 * session (none = anonymous, unsigned). With a file, a multipart POST whose text parameters are
 * all in the signed query string (the sign covers them; the file travels in the body).
 */
export async function wireCall(
  url: string,
  session: Session | undefined,
  action: string,
  params: WireParams,
  salt: string,
  ip: string,
  file?: { field: string } & WireFile,
): Promise<{ env: Envelope<unknown>; text: string }> {
  const tail = `&action=${action}` + encodePairs({ source: 1, ...params });
  const query = session
    ? `sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`
    : `salt=${salt}${tail}`;
  let init: RequestInit = { headers: { 'x-forwarded-for': ip } };
  if (file) {
    const fd = new FormData();
    fd.append(file.field, new Blob([new Uint8Array(file.bytes)]), file.name);
    init = { ...init, method: 'POST', body: fd };
  }
  const res = await fetch(`${url}/public/?${query}`, init);
  const text = await res.text();
  let env: Envelope<unknown>;
  try {
    env = JSON.parse(text) as Envelope<unknown>;
  } catch {
    env = { err: -1, desc: `not JSON (HTTP ${res.status})` };
  }
  return { env, text };
}
