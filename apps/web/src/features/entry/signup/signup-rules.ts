/**
 * Rules of the signup and password-retrieval faces (spec §5), from the protocol's schemas: each
 * check gives the `rules` key of the first failing rule (with its values) or undefined.
 */
import {
  RULE_MESSAGE_VALUES,
  charCount,
  confirmPasswordError,
  countrySchema,
  emailSchema,
  mainlandMobileSchema,
  passwordSchema,
  phoneSchema,
  pictureCodeSchema,
  pnSchema,
  ruleErrorKey,
  strictEmailSchema,
  usernameSchema,
  verificationCodeSchema,
  LIMITS,
  type RuleMessageKey,
} from '@sunwatch/protocol';
import type { z } from 'zod';

export interface RuleProblem {
  key: string;
  values: Record<string, number>;
}

const problem = (key: string | undefined): RuleProblem | undefined =>
  key ? { key, values: RULE_MESSAGE_VALUES[key as RuleMessageKey] ?? {} } : undefined;
const run = (schema: z.ZodType, v: string) => problem(ruleErrorKey(schema, v));

export type SignupChannel = 'phone' | 'email';
export interface SignupValues {
  usr: string;
  pwd: string;
  confPwd: string;
  sn: string;
  country: string;
  phone: string;
  email: string;
  code: string;
}
export type SignupField = keyof SignupValues;

export function checkSignupField(field: SignupField, v: SignupValues): RuleProblem | undefined {
  switch (field) {
    case 'usr':
      return run(usernameSchema, v.usr);
    case 'pwd':
      return run(passwordSchema, v.pwd);
    case 'confPwd':
      return problem(confirmPasswordError(v.pwd, v.confPwd));
    case 'sn':
      return run(pnSchema, v.sn.trim());
    case 'country':
      return run(countrySchema, v.country);
    case 'phone':
      return run(phoneSchema, v.phone.trim());
    case 'email':
      return run(emailSchema, v.email.trim());
    case 'code':
      return run(verificationCodeSchema, v.code.trim());
  }
}

/** The fields of a signup by channel, in form order. */
export function signupFields(channel: SignupChannel): SignupField[] {
  return ['usr', 'pwd', 'confPwd', 'sn', 'country', channel === 'phone' ? 'phone' : 'email', 'code'];
}

/** Before a phone code is sent: a phone, in the mainland pattern (spec §5). */
export function checkPhoneForSending(phone: string): RuleProblem | undefined {
  return run(mainlandMobileSchema, phone.trim());
}
export function checkEmailForSending(email: string, strict = false): RuleProblem | undefined {
  return run(strict ? strictEmailSchema : emailSchema, email.trim());
}
export function checkPictureCode(v: string): RuleProblem | undefined {
  return run(pictureCodeSchema, v.trim());
}

/** The live count "n/32", shown once the username is valid (spec §5). */
export function usernameCount(usr: string): string | undefined {
  return checkSignupField('usr', { usr } as SignupValues) ? undefined : `${charCount(usr)}/${LIMITS.USERNAME_MAX}`;
}

/** Countries and regions offered (ISO 3166-1 alpha-2); names come from Intl.DisplayNames. */
export const COUNTRIES = [
  'CN', 'HK', 'TW', 'ID', 'IT', 'DE', 'FR', 'RU', 'TR', 'UZ', 'NL', 'PL', 'GB', 'IE', 'ES', 'PT', 'AT', 'CH', 'BE', 'LU',
  'DK', 'SE', 'NO', 'FI', 'CZ', 'SK', 'HU', 'RO', 'BG', 'GR', 'UA', 'KZ', 'US', 'CA', 'MX', 'BR', 'AR', 'CL', 'CO', 'PE',
  'AU', 'NZ', 'JP', 'KR', 'IN', 'PK', 'BD', 'TH', 'VN', 'MY', 'SG', 'PH', 'AE', 'SA', 'EG', 'MA', 'NG', 'KE', 'ZA',
] as const;

export function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale.replace('_', '-')], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
