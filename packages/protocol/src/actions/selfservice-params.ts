import { rc4EncryptHex, sha1Hex } from '../sign.js';

/** Self-service constants shared by server and web (issue 12; actions in selfservice.ts). */
/** Verification code purposes (stored with each code). */
export const CODE_PURPOSES = ['signup', 'reset', 'bind', 'unbind'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/** Code validity (spec §5): a phone code 1 minute, an email code 5 minutes. */
export const CODE_VALIDITY_MS = { phone: 60_000, email: 300_000 } as const;
/** Send-button countdowns in seconds (spec §4). */
export const CODE_COUNTDOWN_S = { signupPhone: 90, signupEmail: 180, resetPhone: 60, resetEmail: 300 } as const;
/** Wrong entries after which a code is dead (513). */
export const CODE_MAX_ATTEMPTS = 5;
/** Codes per address per hour before 524; per IP per hour. */
export const CODE_LIMITS = { perTargetHour: 5, perIpHour: 20, pictureCodesPerIpHour: 120 } as const;
/** A picture code lives this long. */
export const PICTURE_CODE_VALIDITY_MS = 300_000;


/**
 * The password of signup and reset calls: `pwd` = hex(RC4(key = sha1hex(usr), sha1hex(password))),
 * `pwdtext` = hex(RC4(key = sha1hex(usr), password)).
 */
export function encodeSelfServicePassword(usr: string, password: string): { pwd: string; pwdtext: string } {
  const key = sha1Hex(usr);
  return { pwd: rc4EncryptHex(key, sha1Hex(password)), pwdtext: rc4EncryptHex(key, password) };
}
