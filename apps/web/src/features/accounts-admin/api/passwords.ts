import { rc4EncryptHex, sha1Hex } from '@sunwatch/protocol';

/**
 * The password transport of sub-account actions (vendor-actions.md §4): `pwd` =
 * hex(RC4(key = the caller's login secret, sha1(password))) and Sunwatch's `pwdtext` =
 * hex(RC4(secret, password)) so the server checks the spec §5 rules itself.
 */
export function encodeSubAccountPassword(secret: string, password: string): { pwd: string; pwdtext: string } {
  return { pwd: rc4EncryptHex(secret, sha1Hex(password)), pwdtext: rc4EncryptHex(secret, password) };
}
