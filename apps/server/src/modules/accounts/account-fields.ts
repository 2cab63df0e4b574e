import { ApiError, LIMITS, PATTERNS, PROFILE_RULES, charCount, usernameSchema } from '@sunwatch/protocol';

/**
 * Server-side checks of the account fields of the management actions, with the catalogue codes
 * of vendor-actions.md §3–§4 (the params accept any string for them): username 21, e-mail 20,
 * phone 19, company name 22, dealer codes 23, nickname 6 (`qname`).
 */
export interface ProfileInput {
  email?: string | undefined;
  mobile?: string | undefined;
  qname?: string | undefined;
  photo?: string | undefined;
  cname?: string | undefined;
  ctel?: string | undefined;
  desc?: string | undefined;
  caddr?: string | undefined;
  qq?: string | undefined;
  wx?: string | undefined;
}

/** Profile field → accounts column. */
export const PROFILE_COLUMNS = {
  email: 'email',
  mobile: 'mobile',
  qname: 'qname',
  photo: 'photo',
  cname: 'cname',
  ctel: 'ctel',
  desc: 'description',
  caddr: 'caddr',
  qq: 'qq',
  wx: 'wx',
} as const;

export type ProfileColumn = (typeof PROFILE_COLUMNS)[keyof typeof PROFILE_COLUMNS];

/** Characters no profile text may hold (control characters, markup brackets). */
// eslint-disable-next-line no-control-regex -- control characters are what this rejects
const UNSAFE_TEXT = /[\u0000-\u001f\u007f<>]/;
const COMPANY_NAME_MAX = PROFILE_RULES.COMPANY_NAME_MAX;

export function checkUsername(usr: string): string {
  const parsed = usernameSchema.safeParse(usr);
  if (!parsed.success) throw new ApiError(21);
  return parsed.data;
}

/** Validates the given (non-omitted) fields; empty values clear and are always valid. */
export function checkProfile(input: ProfileInput): Partial<Record<ProfileColumn, string>> {
  const patch: Partial<Record<ProfileColumn, string>> = {};
  for (const [field, column] of Object.entries(PROFILE_COLUMNS) as [keyof ProfileInput, ProfileColumn][]) {
    const raw = input[field];
    if (raw === undefined) continue;
    const value = field === 'desc' || field === 'photo' ? raw : raw.trim();
    if (value !== '') checkField(field, value);
    patch[column] = value;
  }
  return patch;
}

function checkField(field: keyof ProfileInput, value: string): void {
  switch (field) {
    case 'email':
      if (value.length > LIMITS.EMAIL_MAX || !PATTERNS.EMAIL.test(value)) throw new ApiError(20);
      return;
    case 'mobile':
      if (!PATTERNS.DIGITS.test(value) || value.length < LIMITS.PHONE_MIN || value.length > LIMITS.PHONE_MAX) {
        throw new ApiError(19);
      }
      return;
    case 'qname': {
      const n = charCount(value);
      if (n < LIMITS.NICKNAME_MIN || n > LIMITS.NICKNAME_MAX || UNSAFE_TEXT.test(value)) throw new ApiError(6, 'qname');
      return;
    }
    case 'cname':
      if (charCount(value) > COMPANY_NAME_MAX || UNSAFE_TEXT.test(value)) throw new ApiError(22);
      return;
    case 'ctel':
      if (!PROFILE_RULES.COMPANY_PHONE.test(value)) throw new ApiError(19);
      return;
    case 'caddr':
      if (charCount(value) > PROFILE_RULES.COMPANY_ADDRESS_MAX || UNSAFE_TEXT.test(value)) throw new ApiError(6, 'caddr');
      return;
    case 'photo':
      if (!/^(https?:\/\/|\/)[^\s<>"']*$/.test(value)) throw new ApiError(6, 'photo');
      return;
    default:
      // eslint-disable-next-line no-control-regex -- control characters are what this rejects
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value)) throw new ApiError(6, field);
  }
}

/**
 * A recovery phone or e-mail belongs to one account (the bind flow's rule, spec §8): 18 when
 * another account holds `next.mobile`, 26 when another holds `next.email` (case-insensitive).
 * Creation passes no `current`; an edit passes the row, so keeping or re-setting its own value
 * (also an address that existed twice before this rule) and clearing are never refused.
 * The one check of editAccount, editSubAccount, editDist, editPlantBrowser and of every account
 * creation (addDist, addPlantOwner, addGroupAccount, addSubAdmin, addPlantBrowser).
 */
export async function requireFreeContact(
  accounts: { contactHolder(field: 'mobile' | 'email', value: string, exceptId?: number): Promise<number | undefined> },
  next: { mobile?: string | undefined; email?: string | undefined },
  current?: { id: number; mobile: string; email: string },
): Promise<void> {
  const mobile = next.mobile?.trim();
  if (
    mobile &&
    mobile !== current?.mobile.trim() &&
    (await accounts.contactHolder('mobile', mobile, current?.id)) !== undefined
  ) {
    throw new ApiError(18);
  }
  const email = next.email?.trim();
  if (
    email &&
    email.toLowerCase() !== current?.email.trim().toLowerCase() &&
    (await accounts.contactHolder('email', email, current?.id)) !== undefined
  ) {
    throw new ApiError(26);
  }
}

/** Dealer codes (`vcode=00,01`): each 2–3 letters or digits, distinct, upper-cased; else 23. */
export function checkDealerCodes(vcode: string): string {
  const codes = vcode.split(',').map((c) => c.trim().toUpperCase());
  if (codes.length === 0 || codes.length > 32 || codes.some((c) => !PATTERNS.MANUFACTURER_CODE.test(c))) {
    throw new ApiError(23);
  }
  if (new Set(codes).size !== codes.length) throw new ApiError(23);
  return codes.join(',');
}
