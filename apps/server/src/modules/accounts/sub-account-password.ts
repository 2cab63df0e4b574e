import { ApiError, TOO_SIMPLE_PASSWORDS, passwordSchema, rc4DecryptHex, sha1Hex } from '@sunwatch/protocol';
import type { CallInfo } from '../../http/registry.js';

/**
 * The password of an account that someone else creates or resets (addDist, editDist,
 * addPlantOwner, addGroupAccount, addSubAdmin, resetAccountPassword, addPlantBrowser,
 * editPlantBrowser; vendor-actions.md §0/§4):
 * - `pwd`     = hex(RC4(key = the caller's login secret, sha1hex(password))), the vendor form;
 * - `pwdtext` = hex(RC4(key = the caller's login secret, password)), the Sunwatch addition that lets
 *   the server apply the password rules of spec §5 itself (as updatePassword's `newpwdtext`).
 *
 * Errors: `pwd` that does not decrypt to a 40-hex digest → 16 (wrong key: not the caller's secret);
 * `pwdtext` that does not match the digest or breaks the rules → 17; the digest-only form when
 * `allowDigestOnly` is off (SIGN_POLICY=strict, `config.passwordChangeCompat`) → 17 `pwdtext`;
 * a too-simple password (123456, 12345678), also recognised from its digest → 17.
 */
export interface SubAccountPasswordInput {
  pwd: string;
  pwdtext?: string | undefined;
}

export interface SubAccountPasswordOptions {
  /** The caller's login secret (`CallInfo.sessionSecret`). */
  secret: string | undefined;
  /** Accept `pwd` without `pwdtext` (vendor clients): `config.passwordChangeCompat`. */
  allowDigestOnly: boolean;
}

const TOO_SIMPLE = new Set(TOO_SIMPLE_PASSWORDS.map(sha1Hex));
const SHA1_HEX = /^[0-9a-fA-F]{40}$/;

/** The sha1hex (lower case) of the new password, checked; never returns or logs the password. */
export function subAccountPasswordSha1(input: SubAccountPasswordInput, options: SubAccountPasswordOptions): string {
  if (options.secret === undefined) throw new ApiError(10);
  const digest = rc4DecryptHex(options.secret, input.pwd);
  if (digest === undefined || !SHA1_HEX.test(digest)) throw new ApiError(16);
  const sha1 = digest.toLowerCase();
  if (input.pwdtext !== undefined) {
    const text = rc4DecryptHex(options.secret, input.pwdtext);
    if (text === undefined || sha1Hex(text) !== sha1 || !passwordSchema.safeParse(text).success) {
      throw new ApiError(17);
    }
  } else if (!options.allowDigestOnly) {
    throw new ApiError(17, 'pwdtext');
  }
  if (TOO_SIMPLE.has(sha1)) throw new ApiError(17);
  return sha1;
}

/** The same for a handler: the secret of the call's session, the compat switch of the config. */
export function subAccountPasswordOfCall(
  input: SubAccountPasswordInput,
  call: Pick<CallInfo, 'sessionSecret'>,
  config: { passwordChangeCompat: boolean },
): string {
  return subAccountPasswordSha1(input, { secret: call.sessionSecret, allowDigestOnly: config.passwordChangeCompat });
}
