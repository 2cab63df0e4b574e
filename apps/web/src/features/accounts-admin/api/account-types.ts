/**
 * The account types an administrator creates (spec §2 "Account management", §3) and the rules of
 * the create form (spec §5), built from the protocol's rule schemas so the form checks exactly
 * what the server checks.
 */
import { type AccountType } from './account-kinds';
import {
  confirmPasswordError,
  emailSchema,
  groupNameSchema,
  nameSchema,
  nicknameSchema,
  passwordSchema,
  phoneSchema,
  roleRequiredSchema,
  ruleErrorKey,
  usernameSchema,
} from '@sunwatch/protocol';

export interface CreateValues {
  type: AccountType;
  usr: string;
  pwd: string;
  confPwd: string;
  qname?: string;
  email?: string;
  mobile?: string;
  desc?: string;
  /** Dealer codes, comma separated (dealer). */
  vcode?: string;
  /** Custom role (required for a sub-administrator, optional for a dealer/owner). */
  rid?: number;
  /** User group (required for a group account, optional for an owner). */
  groupid?: number;
  /** Plants of a viewer. */
  pid?: number[];
  addCollector?: boolean;
}

/** Dealer codes: letters, digits, `_` and `-`, comma separated. */
const DEALER_CODES = /^[A-Za-z0-9_-]+(\s*,\s*[A-Za-z0-9_-]+)*$/;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Field → message key of the first broken rule (empty when the form is valid). Keys starting with
 * `rules.` are the protocol's (`ruleText`), `accounts:` keys this feature's.
 */
export function createFormErrors(values: Partial<CreateValues>): Record<string, string> {
  const type = values.type ?? 'owner';
  const out: Record<string, string | undefined> = {
    usr: ruleErrorKey(usernameSchema, values.usr),
    pwd: ruleErrorKey(passwordSchema, values.pwd),
    confPwd: confirmPasswordError(values.pwd, values.confPwd),
    qname: blank(values.qname) ? undefined : ruleErrorKey(nicknameSchema, values.qname),
    email: blank(values.email) ? undefined : ruleErrorKey(emailSchema, values.email),
    mobile: blank(values.mobile) ? undefined : ruleErrorKey(phoneSchema, values.mobile),
  };
  if (type === 'dealer') {
    out.vcode = blank(values.vcode)
      ? 'accounts:create.vcodeRequired'
      : DEALER_CODES.test(values.vcode!.trim())
        ? undefined
        : 'accounts:create.vcodeFormat';
  }
  if (type === 'subAdmin') out.rid = ruleErrorKey(roleRequiredSchema, values.rid);
  if (type === 'group' && values.groupid === undefined) out.groupid = 'accounts:create.groupRequired';
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The password fields of the reset dialog: the same rules as creating. */
export function passwordFormErrors(pwd: string | undefined, confPwd: string | undefined): Record<string, string> {
  const out: Record<string, string | undefined> = {
    pwd: ruleErrorKey(passwordSchema, pwd),
    confPwd: confirmPasswordError(pwd, confPwd),
  };
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Group (and role) names: required (spec §5), 2-32 characters like every name field. */
export function nameError(name: string | undefined, requiredKey: 'group' | 'role' = 'group'): string | undefined {
  if (blank(name)) return requiredKey === 'group' ? ruleErrorKey(groupNameSchema, name) : 'rules.name.required';
  return ruleErrorKey(nameSchema, name);
}

/** Parses a dealer-code field into the wire's comma list. */
export function dealerCodes(text: string | undefined): string {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(',');
}
