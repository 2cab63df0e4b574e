/**
 * Login form rules (spec §5 "Login": username required, 2-32; password required, 6-32;
 * checked on blur; the password input is trimmed). Returns the `entry` namespace key of the
 * message to show, or undefined when the value is fine.
 */
// TODO(protocol rules.ts): switch to the protocol's login schema once packages/protocol/src/rules.ts
// exports it (rule: spec §5 Accounts "Login: username required, 2-32; password required, 6-32").
export const USR_MIN = 2;
export const USR_MAX = 32;
export const PWD_MIN = 6;
export const PWD_MAX = 32;

export type LoginRuleKey = 'rules.usrRequired' | 'rules.usrLength' | 'rules.pwdRequired' | 'rules.pwdLength';

export function checkLoginUsr(value: unknown): LoginRuleKey | undefined {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!v) return 'rules.usrRequired';
  const n = [...v].length;
  if (n < USR_MIN || n > USR_MAX) return 'rules.usrLength';
  return undefined;
}

export function checkLoginPwd(value: unknown): LoginRuleKey | undefined {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!v) return 'rules.pwdRequired';
  const n = [...v].length;
  if (n < PWD_MIN || n > PWD_MAX) return 'rules.pwdLength';
  return undefined;
}
