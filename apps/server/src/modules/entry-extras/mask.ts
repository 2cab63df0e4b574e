/**
 * Masking of the account lookup (spec §2 "Account retrieval": a masked account, phone and
 * e-mail). Enough for the owner to recognise their own data, too little to use it elsewhere:
 * the account keeps its first and last character, the phone its first 3 and last 4 digits
 * (first and last on short numbers), the e-mail the first character of its local part and the
 * domain. Empty stays empty.
 */
export function maskAccount(usr: string): string {
  const chars = [...usr];
  if (chars.length === 0) return '';
  if (chars.length <= 2) return `${chars[0]}*`;
  return `${chars[0]}***${chars[chars.length - 1]}`;
}

export function maskPhone(mobile: string): string {
  const s = mobile.trim();
  if (!s) return '';
  if (s.length >= 9) return `${s.slice(0, 3)}****${s.slice(-4)}`;
  if (s.length <= 2) return `${s[0]}*`;
  return `${s[0]}***${s[s.length - 1]}`;
}

export function maskEmail(email: string): string {
  const s = email.trim();
  const at = s.lastIndexOf('@');
  if (at <= 0) return s ? maskAccount(s) : '';
  return `${s[0]}***${s.slice(at)}`;
}
