import crypto from 'node:crypto';
import { fallbackTail, rawPairs, rawTail } from '@sunwatch/protocol';
import { sameHex } from '../security/keyring.js';
import { decodeComponent } from './params.js';

const QS_UNESCAPES: Record<string, string> = {
  '%20': ' ',
  '%2B': '+',
  '%3A': ':',
  '%2C': ',',
  '%40': '@',
  '%24': '$',
  '%26': '&',
  '%3D': '=',
  '%28': '(',
  '%29': ')',
};

/**
 * The vendor web SDK signs `qs.stringify(...)` with these escapes undone, while the browser
 * puts the space back as `%20` on the wire. Undoing the same escapes on the raw tail gives the
 * exact string such a client signed; it never re-encodes a parsed value.
 */
export function qsUnescape(text: string): string {
  return text.replace(/%(20|2B|3A|2C|40|24|26|3D|28|29)/gi, (m) => QS_UNESCAPES[m.toUpperCase()] ?? m);
}

/**
 * Lower-case hex SHA-1 of the UTF-8 bytes of `text`: the protocol's `sha1Hex` (wire-protocol.md §2)
 * through Node's native hash, ~4× cheaper per signed call than the portable one the web app uses
 * (issue 16, signed-action throughput). sign-verify.test.ts checks both agree.
 */
export function nativeSha1Hex(text: string): string {
  return crypto.createHash('sha1').update(text, 'utf8').digest('hex');
}

/** A tail a client may have signed, with the (decoded) keys of the parameters it covers. */
export interface SignCandidate {
  tail: string;
  covers: ReadonlySet<string>;
}

/** Parameters that are never part of the signed string (wire-protocol.md §3). */
export const SIGN_ENVELOPE_KEYS: ReadonlySet<string> = new Set(['sign', 'salt', 'token']);

/**
 * Every tail a client may have signed, from the raw undecoded query (or form body), with what
 * each covers: rule 2 (from the first `action=` pair: the pairs from there on), rule 4 (all
 * pairs except sign/salt/token in their order: everything), each also with the qs escapes
 * undone; for logins also the short form `&action=auth&usr=..&company-key=..` (those three).
 */
export function signCandidates(raw: string, login: boolean): SignCandidate[] {
  const pairs = rawPairs(raw);
  const keysOf = (list: Array<[string, string]>) => new Set(list.map(([k]) => decodeComponent(k)));
  const out: SignCandidate[] = [];
  const t = rawTail(raw);
  if (t) {
    const first = pairs.findIndex(([k]) => k === 'action');
    out.push({ tail: t, covers: keysOf(first < 0 ? [] : pairs.slice(first)) });
  }
  out.push({ tail: fallbackTail(raw), covers: keysOf(pairs) });
  if (login) {
    const get = (k: string) => pairs.find(([key]) => key === k)?.[1];
    const action = get('action');
    const usr = get('usr');
    const key = get('company-key');
    if (action !== undefined && usr !== undefined && key !== undefined) {
      out.push({
        tail: `&action=${action}&usr=${usr}&company-key=${key}`,
        covers: new Set(['action', 'usr', 'company-key']),
      });
    }
  }
  for (const c of [...out]) {
    const unescaped = qsUnescape(c.tail);
    if (unescaped !== c.tail) out.push({ tail: unescaped, covers: c.covers });
  }
  return out;
}

/** Every tail a client may have signed (see signCandidates). */
export function signTails(raw: string, login: boolean): string[] {
  return [...new Set(signCandidates(raw, login).map((c) => c.tail))];
}

/**
 * The candidate tail that `sign` = sha1(prefix + tail) was made over (case-insensitive), the
 * one covering the most parameters when several match; undefined when none does.
 */
export function matchSign(sign: string, prefix: string, raw: string, login: boolean): SignCandidate | undefined {
  if (!/^[0-9a-fA-F]{40}$/.test(sign)) return undefined;
  let best: SignCandidate | undefined;
  // Candidates often share a tail (rule 2 and rule 4 agree when the action comes first): hash each once.
  const checked = new Map<string, boolean>();
  for (const c of signCandidates(raw, login)) {
    let ok = checked.get(c.tail);
    if (ok === undefined) checked.set(c.tail, (ok = sameHex(nativeSha1Hex(prefix + c.tail), sign)));
    if (ok && (!best || c.covers.size > best.covers.size)) best = c;
  }
  return best;
}

/** True when sha1(prefix + tail) equals `sign` (case-insensitive) for any candidate tail. */
export function verifySign(sign: string, prefix: string, raw: string, login: boolean): boolean {
  return matchSign(sign, prefix, raw, login) !== undefined;
}

/** The parameters of a call (other than sign, salt, token) that the matched sign does not cover. */
export function unsignedKeys(keys: Iterable<string>, covers: ReadonlySet<string>): string[] {
  return [...keys].filter((k) => !SIGN_ENVELOPE_KEYS.has(k) && !covers.has(k));
}
