import { fallbackTail, rawPairs, rawTail, sha1Hex } from '@sunwatch/protocol';
import { sameHex } from '../security/keyring.js';

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
 * Every tail a client may have signed, from the raw undecoded query (or form body):
 * rule 2 (from the first `action=` pair), rule 4 (all pairs except sign/salt/token in their
 * order), each also with the qs escapes undone; for logins also the short form
 * `&action=auth&usr=..&company-key=..`.
 */
export function signTails(raw: string, login: boolean): string[] {
  const tails = new Set<string>();
  const t = rawTail(raw);
  if (t) tails.add(t);
  tails.add(fallbackTail(raw));
  if (login) {
    const pairs = rawPairs(raw);
    const get = (k: string) => pairs.find(([key]) => key === k)?.[1];
    const action = get('action');
    const usr = get('usr');
    const key = get('company-key');
    if (action !== undefined && usr !== undefined && key !== undefined) {
      tails.add(`&action=${action}&usr=${usr}&company-key=${key}`);
    }
  }
  for (const x of [...tails]) tails.add(qsUnescape(x));
  return [...tails];
}

/** True when sha1(prefix + tail) equals `sign` (case-insensitive) for any candidate tail. */
export function verifySign(sign: string, prefix: string, raw: string, login: boolean): boolean {
  if (!/^[0-9a-fA-F]{40}$/.test(sign)) return false;
  return signTails(raw, login).some((tail) => sameHex(sha1Hex(prefix + tail), sign));
}
