import { z } from 'zod';

/**
 * Validation rules of spec §5 and limits of spec §9, shared by the server and the web.
 *
 * Every failing rule yields a message KEY (never English text), e.g. `rules.username.length`.
 * The texts live in `i18n/<locale>/rules.json` (flat keys); `ruleMessage()` in `i18n/index.ts`
 * renders them, filling `{{min}}`/`{{max}}` from `RULE_MESSAGE_VALUES`.
 *
 * Schemas are zod 4; the issue `message` is the key. `ruleErrorKey(schema, value)` gives the
 * first key (what a form shows under a field), `ruleErrors(schema, value)` one key per field.
 */

// ---------------------------------------------------------------------------------------------
// Message keys
// ---------------------------------------------------------------------------------------------

/** Every key of `rules.json` (the same list in every locale). */
export const RULE_MESSAGE_KEYS = [
  'rules.required',
  'rules.number.invalid',
  'rules.username.required',
  'rules.username.length',
  'rules.username.chars',
  'rules.password.required',
  'rules.password.length',
  'rules.password.chars',
  'rules.password.tooSimple',
  'rules.password.sameAsOld',
  'rules.password.oldRequired',
  'rules.password.strength.weak',
  'rules.password.strength.medium',
  'rules.password.strength.strong',
  'rules.confirmPassword.required',
  'rules.confirmPassword.mismatch',
  'rules.nickname.length',
  'rules.groupName.required',
  'rules.email.required',
  'rules.email.format',
  'rules.email.length',
  'rules.phone.required',
  'rules.phone.digits',
  'rules.phone.length',
  'rules.phone.length11',
  'rules.mobile.required',
  'rules.mobile.format',
  'rules.code.required',
  'rules.code.format',
  'rules.pictureCode.required',
  'rules.pictureCode.format',
  'rules.pictureCode.mismatch',
  'rules.country.required',
  'rules.pn.required',
  'rules.pn.length',
  'rules.pn.format',
  'rules.serial.required',
  'rules.serial.format',
  'rules.serial.length',
  'rules.manufacturerCode.required',
  'rules.manufacturerCode.format',
  'rules.typeCode.required',
  'rules.typeCode.format',
  'rules.entryKey.required',
  'rules.entryKey.length',
  'rules.longitude.range',
  'rules.latitude.range',
  'rules.price.negative',
  'rules.ratedPower.required',
  'rules.ratedPower.invalid',
  'rules.timezone.required',
  'rules.timezone.invalid',
  'rules.currency.required',
  'rules.currency.invalid',
  'rules.installDate.required',
  'rules.commAddress.required',
  'rules.confirmYes.mismatch',
  'rules.applyName.required',
  'rules.applyName.length',
  'rules.reason.required',
  'rules.invitationCode.required',
  'rules.invitationCode.expired',
  'rules.name.required',
  'rules.name.length',
  'rules.name.longLength',
  'rules.role.required',
  'rules.roleName.duplicate',
  'rules.accountType.limit',
  'rules.orderNumber.required',
  'rules.hostname.required',
  'rules.sn.required',
  'rules.sn.mismatch',
  'rules.devaddr.required',
  'rules.devaddr.invalid',
  'rules.devaddr.mismatch',
  'rules.devcode.required',
  'rules.dateRange.required',
  'rules.dateRange.invalid',
  'rules.dateRange.order',
  'rules.dateRange.future',
  'rules.dateRange.reportTooLong',
  'rules.dateRange.logTooLong',
  'rules.parameters.min',
  'rules.parameters.maxDisplay',
  'rules.parameters.maxCompare',
  'rules.parameters.units',
  'rules.command.required',
  'rules.command.format',
  'rules.step.invalid',
  'rules.file.required',
  'rules.firmware.type',
  'rules.firmware.sizeManager',
  'rules.firmware.sizeUpgrade',
  'rules.firmware.nameRequired',
  'rules.firmware.versionRequired',
  'rules.image.type',
  'rules.image.size',
  'rules.image.projectSize',
  'rules.batchFile.xlsx',
  'rules.batchFile.excel',
] as const;
export type RuleMessageKey = (typeof RULE_MESSAGE_KEYS)[number];

const k = (key: RuleMessageKey): RuleMessageKey => key;

export function isRuleMessageKey(key: string): key is RuleMessageKey {
  return (RULE_MESSAGE_KEYS as readonly string[]).includes(key);
}

// ---------------------------------------------------------------------------------------------
// Limits (spec §9)
// ---------------------------------------------------------------------------------------------

export const LIMITS = {
  USERNAME_MIN: 2,
  USERNAME_MAX: 32,
  PASSWORD_MIN: 6,
  PASSWORD_MAX: 32,
  NICKNAME_MIN: 2,
  NICKNAME_MAX: 32,
  NAME_MIN: 2,
  NAME_MAX: 32,
  LONG_NAME_MAX: 64,
  EMAIL_MAX: 64,
  PHONE_MIN: 6,
  PHONE_MAX: 32,
  ACCOUNT_PHONE_LENGTH: 11,
  PN_LENGTHS: [14, 18] as readonly number[],
  SERIAL_MAX: 24,
  PICTURE_CODE_LENGTH: 4,
  VERIFICATION_CODE_LENGTH: 6,
  MANUFACTURER_CODE_MIN: 2,
  MANUFACTURER_CODE_MAX: 3,
  ENTRY_KEY_BYTES: 16,
  REPORT_MAX_DAYS: 31,
  DATALOGGER_LOG_MAX_DAYS: 3,
  ALARM_STATS_DAYS: 7,
  PARAMETERS_DISPLAY_MAX: 7,
  PARAMETERS_COMPARE_MAX: 4,
  PARAMETERS_UNITS_MAX: 2,
  /** Phone verification code validity (s). */
  PHONE_CODE_VALIDITY_SECONDS: 60,
  /** Email verification code validity (s). */
  EMAIL_CODE_VALIDITY_SECONDS: 300,
  QR_KEY_LENGTH: 32,
  QR_POLL_MS: 3000,
  LOGIN_RETRY_DELAY_MS: 1000,
} as const;

const MB = 1024 * 1024;
/** Upload limits in bytes (spec §5 Uploads, §9). */
export const FILE_LIMITS = {
  FIRMWARE_MANAGER_BYTES: 8 * MB,
  FIRMWARE_UPGRADE_BYTES: 1 * MB,
  IMAGE_BYTES: 8 * MB,
  PROJECT_IMAGE_BYTES: 1 * MB,
} as const;

export const FIRMWARE_EXTENSIONS = ['bin', 'hex', 's19'] as const;
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;
export const BATCH_DATALOGGER_EXTENSIONS = ['xlsx'] as const;
export const BATCH_ASSIGNMENT_EXTENSIONS = ['xlsx', 'xls'] as const;

/** Interpolation values of the keys whose texts use `{{min}}` / `{{max}}`. */
export const RULE_MESSAGE_VALUES: Partial<Record<RuleMessageKey, Record<string, number>>> = {
  'rules.username.length': { min: LIMITS.USERNAME_MIN, max: LIMITS.USERNAME_MAX },
  'rules.password.length': { min: LIMITS.PASSWORD_MIN, max: LIMITS.PASSWORD_MAX },
  'rules.nickname.length': { min: LIMITS.NICKNAME_MIN, max: LIMITS.NICKNAME_MAX },
  'rules.email.length': { max: LIMITS.EMAIL_MAX },
  'rules.phone.length': { min: LIMITS.PHONE_MIN, max: LIMITS.PHONE_MAX },
  'rules.applyName.length': { min: LIMITS.NAME_MIN, max: LIMITS.NAME_MAX },
  'rules.name.length': { min: LIMITS.NAME_MIN, max: LIMITS.NAME_MAX },
  'rules.name.longLength': { min: LIMITS.NAME_MIN, max: LIMITS.LONG_NAME_MAX },
  'rules.serial.length': { max: LIMITS.SERIAL_MAX },
  'rules.dateRange.reportTooLong': { max: LIMITS.REPORT_MAX_DAYS },
  'rules.dateRange.logTooLong': { max: LIMITS.DATALOGGER_LOG_MAX_DAYS },
  'rules.parameters.maxDisplay': { max: LIMITS.PARAMETERS_DISPLAY_MAX },
  'rules.parameters.maxCompare': { max: LIMITS.PARAMETERS_COMPARE_MAX },
  'rules.parameters.units': { max: LIMITS.PARAMETERS_UNITS_MAX },
  'rules.firmware.sizeManager': { max: FILE_LIMITS.FIRMWARE_MANAGER_BYTES / MB },
  'rules.firmware.sizeUpgrade': { max: FILE_LIMITS.FIRMWARE_UPGRADE_BYTES / MB },
  'rules.image.size': { max: FILE_LIMITS.IMAGE_BYTES / MB },
  'rules.image.projectSize': { max: FILE_LIMITS.PROJECT_IMAGE_BYTES / MB },
};

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

export const PATTERNS = {
  /** Chinese (Han) characters, ASCII letters, digits, underscore. */
  USERNAME: /^[\p{Script=Han}A-Za-z0-9_]+$/u,
  /** Digits, ASCII letters, underscore (case sensitive, no Chinese). */
  PASSWORD: /^\w+$/,
  EMAIL: /^[\w.+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/,
  /** Password retrieval: no leading/trailing/double dots, alphabetic top-level domain. */
  STRICT_EMAIL: /^[A-Za-z0-9]+([._+-][A-Za-z0-9]+)*@[A-Za-z0-9]+(-[A-Za-z0-9]+)*(\.[A-Za-z0-9]+(-[A-Za-z0-9]+)*)*\.[A-Za-z]{2,}$/,
  DIGITS: /^\d+$/,
  MAINLAND_MOBILE: /^1[3-9]\d{9}$/,
  VERIFICATION_CODE: /^\d{6}$/,
  /** Accepts either case; the code itself is digits and capital letters. */
  PICTURE_CODE: /^[0-9A-Za-z]{4}$/,
  PN: /^[A-Z][A-Za-z0-9]*$/,
  SERIAL: /^[A-Z]\d+$/,
  MANUFACTURER_CODE: /^[A-Za-z0-9]{2,3}$/,
  TYPE_CODE: /^[A-Za-z]$/,
  HEX_COMMAND: /^[0-9A-Fa-f]{2}(\s+[0-9A-Fa-f]{2})*$/,
} as const;

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/** Length in characters (code points), so that one Chinese character counts as one. */
export function charCount(s: string): number {
  return [...s].length;
}

/** Length in UTF-8 bytes. */
export function byteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** A required string: missing, empty or blank fails with `requiredKey` (and stops there). */
function requiredString(requiredKey: RuleMessageKey, trim = true) {
  const base = z.string({ error: requiredKey });
  return (trim ? base.trim() : base).min(1, { error: requiredKey, abort: true });
}

function lengthBetween(min: number, max: number) {
  return (s: string) => {
    const n = charCount(s);
    return n >= min && n <= max;
  };
}

/** Form inputs arrive as strings; '' and blanks mean "not filled in". */
function toNumberInput(v: unknown): unknown {
  if (typeof v === 'string') {
    const t = v.trim();
    return t === '' ? undefined : Number(t);
  }
  return v === null ? undefined : v;
}

function numberInput(requiredKey: RuleMessageKey, invalidKey: RuleMessageKey = 'rules.number.invalid') {
  return z.number({ error: (iss) => (iss.input === undefined ? requiredKey : invalidKey) });
}

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

/** Username: 2-32 characters, Chinese, letters, digits, underscore. */
export const usernameSchema = requiredString(k('rules.username.required'))
  .refine(lengthBetween(LIMITS.USERNAME_MIN, LIMITS.USERNAME_MAX), k('rules.username.length'))
  .regex(PATTERNS.USERNAME, k('rules.username.chars'));

export const TOO_SIMPLE_PASSWORDS = ['123456', '12345678'] as const;

export function isTooSimplePassword(pwd: string): boolean {
  return (TOO_SIMPLE_PASSWORDS as readonly string[]).includes(pwd);
}

/** Password: 6-32 digits/letters/underscore, case sensitive, not one of the too-simple ones. */
export const passwordSchema = requiredString(k('rules.password.required'), false)
  .refine(lengthBetween(LIMITS.PASSWORD_MIN, LIMITS.PASSWORD_MAX), k('rules.password.length'))
  .regex(PATTERNS.PASSWORD, k('rules.password.chars'))
  .refine((p) => !isTooSimplePassword(p), k('rules.password.tooSimple'));

export type PasswordStrength = 'weak' | 'medium' | 'strong';

/** Number of character classes present: digits, letters, underscore/other. */
export function passwordClasses(pwd: string): number {
  return [/\d/, /[A-Za-z]/, /[^A-Za-z0-9]/].filter((re) => re.test(pwd)).length;
}

/** Spec §5: weak (red) with one class, medium (orange) with two, strong (green) with three. */
export function passwordStrength(pwd: string): PasswordStrength {
  const n = passwordClasses(pwd);
  return n >= 3 ? 'strong' : n === 2 ? 'medium' : 'weak';
}

export const PASSWORD_STRENGTH_COLORS: Record<PasswordStrength, 'red' | 'orange' | 'green'> = {
  weak: 'red',
  medium: 'orange',
  strong: 'green',
};

export function passwordStrengthKey(pwd: string): RuleMessageKey {
  return `rules.password.strength.${passwordStrength(pwd)}` as RuleMessageKey;
}

/** Field-level confirm check (on blur): empty → required, different → mismatch. */
export function confirmPasswordError(pwd: string | undefined, confirm: string | undefined): RuleMessageKey | undefined {
  if (!confirm) return k('rules.confirmPassword.required');
  return pwd === confirm ? undefined : k('rules.confirmPassword.mismatch');
}

/** Confirm field schema (required only; pair it with `refineConfirmPassword`). */
export const confirmPasswordSchema = requiredString(k('rules.confirmPassword.required'), false);

/**
 * Adds "confirm must equal password" to an object schema; the issue lands on the confirm
 * field (`confPwd` by default).
 */
export function refineConfirmPassword<T extends z.ZodType<Record<string, unknown>>>(
  schema: T,
  passwordField = 'pwd',
  confirmField = 'confPwd',
): T {
  return schema.refine((v) => v[passwordField] === v[confirmField], {
    error: k('rules.confirmPassword.mismatch'),
    path: [confirmField],
  });
}

/** Login form: usr required 2-32, pwd required 6-32 (trimmed). Checked on blur. */
export const loginUsernameSchema = requiredString(k('rules.username.required')).refine(
  lengthBetween(LIMITS.USERNAME_MIN, LIMITS.USERNAME_MAX),
  k('rules.username.length'),
);
export const loginPasswordSchema = requiredString(k('rules.password.required')).refine(
  lengthBetween(LIMITS.PASSWORD_MIN, LIMITS.PASSWORD_MAX),
  k('rules.password.length'),
);
export const loginFormSchema = z.object({
  usr: loginUsernameSchema,
  pwd: loginPasswordSchema,
  isRem: z.boolean().optional(),
});
export type LoginForm = z.output<typeof loginFormSchema>;

export const nicknameSchema = z
  .string({ error: k('rules.nickname.length') })
  .trim()
  .refine(lengthBetween(LIMITS.NICKNAME_MIN, LIMITS.NICKNAME_MAX), k('rules.nickname.length'));

export const groupNameSchema = requiredString(k('rules.groupName.required'));

/** Email: required, pattern, at most 64. */
export const emailSchema = requiredString(k('rules.email.required'))
  .max(LIMITS.EMAIL_MAX, k('rules.email.length'))
  .regex(PATTERNS.EMAIL, k('rules.email.format'));

/** The stricter email of password retrieval. */
export const strictEmailSchema = requiredString(k('rules.email.required'))
  .max(LIMITS.EMAIL_MAX, k('rules.email.length'))
  .regex(PATTERNS.STRICT_EMAIL, k('rules.email.format'));

export function isEmail(s: string): boolean {
  return s.length <= LIMITS.EMAIL_MAX && PATTERNS.EMAIL.test(s);
}

/** Phone: required, digits only, 6-32. */
export const phoneSchema = requiredString(k('rules.phone.required'))
  .regex(PATTERNS.DIGITS, k('rules.phone.digits'))
  .min(LIMITS.PHONE_MIN, k('rules.phone.length'))
  .max(LIMITS.PHONE_MAX, k('rules.phone.length'));

/** The account page's phone: exactly 11 digits. */
export const accountPhoneSchema = requiredString(k('rules.phone.required'))
  .regex(PATTERNS.DIGITS, k('rules.phone.digits'))
  .length(LIMITS.ACCOUNT_PHONE_LENGTH, k('rules.phone.length11'));

/** Phone code sending: mainland mobile 1[3-9] + 9 digits; empty → "enter a phone first". */
export const mainlandMobileSchema = requiredString(k('rules.mobile.required')).regex(
  PATTERNS.MAINLAND_MOBILE,
  k('rules.mobile.format'),
);

export function isMainlandMobile(s: string): boolean {
  return PATTERNS.MAINLAND_MOBILE.test(s);
}

/** Verification (SMS / email) code: 6 digits. */
export const verificationCodeSchema = requiredString(k('rules.code.required')).regex(
  PATTERNS.VERIFICATION_CODE,
  k('rules.code.format'),
);

export const PICTURE_CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Picture (captcha) code: 4 characters from digits and capital letters, typed in any case. */
export const pictureCodeSchema = requiredString(k('rules.pictureCode.required')).regex(
  PATTERNS.PICTURE_CODE,
  k('rules.pictureCode.format'),
);

/** Case-insensitive comparison of a typed picture code with the shown one. */
export function pictureCodeMatches(typed: string | undefined | null, expected: string | undefined | null): boolean {
  if (!typed || !expected) return false;
  const a = typed.trim().toUpperCase();
  return a.length === LIMITS.PICTURE_CODE_LENGTH && a === expected.trim().toUpperCase();
}

/** A new picture code; pass a crypto-backed `random` (returning [0, 1)) on the server. */
export function randomPictureCode(random: () => number = Math.random): string {
  let s = '';
  for (let i = 0; i < LIMITS.PICTURE_CODE_LENGTH; i++) {
    s += PICTURE_CODE_ALPHABET[Math.floor(random() * PICTURE_CODE_ALPHABET.length) % PICTURE_CODE_ALPHABET.length];
  }
  return s;
}

export const countrySchema = requiredString(k('rules.country.required'));

/** Signup form (spec §3): usr, phone, email, code, pwd, confPwd. */
export const signupFormSchema = refineConfirmPassword(
  z.object({
    usr: usernameSchema,
    phone: phoneSchema,
    email: emailSchema,
    code: verificationCodeSchema,
    pwd: passwordSchema,
    confPwd: confirmPasswordSchema,
  }),
);

/** Change password: old required, new valid and different from the old, confirm equal. */
export const changePasswordFormSchema = z
  .object({
    oldPwd: requiredString(k('rules.password.oldRequired'), false),
    pwd: passwordSchema,
    confPwd: confirmPasswordSchema,
  })
  .refine((v) => v.pwd !== v.oldPwd, { error: k('rules.password.sameAsOld'), path: ['pwd'] })
  .refine((v) => v.pwd === v.confPwd, { error: k('rules.confirmPassword.mismatch'), path: ['confPwd'] });

// ---------------------------------------------------------------------------------------------
// Experience code (demo)
// ---------------------------------------------------------------------------------------------

export const applyNameSchema = requiredString(k('rules.applyName.required')).refine(
  lengthBetween(LIMITS.NAME_MIN, LIMITS.NAME_MAX),
  k('rules.applyName.length'),
);

/** Apply-for-code form; company name and address have no rule. */
export const experienceApplyFormSchema = z.object({
  applyName: applyNameSchema,
  companyName: z.string().optional(),
  companyAddress: z.string().optional(),
  phoneNumber: requiredString(k('rules.phone.required'))
    .min(LIMITS.PHONE_MIN, k('rules.phone.length'))
    .max(LIMITS.PHONE_MAX, k('rules.phone.length')),
  email: emailSchema,
  reason: requiredString(k('rules.reason.required')),
});
export type ExperienceApplyForm = z.output<typeof experienceApplyFormSchema>;

/** Demo form: the invitation (experience) code. */
export const invitationCodeSchema = requiredString(k('rules.invitationCode.required'));
export const demoFormSchema = z.object({ code: invitationCodeSchema });

// ---------------------------------------------------------------------------------------------
// Password retrieval
// ---------------------------------------------------------------------------------------------

export const retrieveStep0Schema = z.object({
  usename: loginUsernameSchema,
  verifycode: pictureCodeSchema,
});

/** Step 1 by phone: mobile 6-32 and the SMS code. */
export const retrieveStep1MobileSchema = z.object({
  mobile: requiredString(k('rules.phone.required'))
    .min(LIMITS.PHONE_MIN, k('rules.phone.length'))
    .max(LIMITS.PHONE_MAX, k('rules.phone.length')),
  smsCode: requiredString(k('rules.code.required')),
});

/** Step 1 by email: the stricter email pattern and the code. */
export const retrieveStep1EmailSchema = z.object({
  email: strictEmailSchema,
  smsCode: requiredString(k('rules.code.required')),
});

export const retrieveStep2Schema = refineConfirmPassword(
  z.object({ pwd: passwordSchema, confPwd: confirmPasswordSchema }),
);

// ---------------------------------------------------------------------------------------------
// Account lookup, datalogger
// ---------------------------------------------------------------------------------------------

/** Account lookup serial: one capital letter then digits, at most 24 characters. */
export const lookupSerialSchema = requiredString(k('rules.serial.required'))
  .max(LIMITS.SERIAL_MAX, k('rules.serial.length'))
  .regex(PATTERNS.SERIAL, k('rules.serial.format'));

/** PN: 14 or 18 characters, letters and digits, the first an uppercase letter. */
export const pnSchema = requiredString(k('rules.pn.required'))
  .refine((s) => LIMITS.PN_LENGTHS.includes(s.length), k('rules.pn.length'))
  .regex(PATTERNS.PN, k('rules.pn.format'));

export function isPn(s: string): boolean {
  return pnSchema.safeParse(s).success;
}

export const manufacturerCodeSchema = requiredString(k('rules.manufacturerCode.required')).regex(
  PATTERNS.MANUFACTURER_CODE,
  k('rules.manufacturerCode.format'),
);

export const typeCodeSchema = requiredString(k('rules.typeCode.required')).regex(
  PATTERNS.TYPE_CODE,
  k('rules.typeCode.format'),
);

/** Company key of a key entry: exactly 16 bytes. */
export const entryKeySchema = requiredString(k('rules.entryKey.required'), false).refine(
  (s) => byteLength(s) === LIMITS.ENTRY_KEY_BYTES,
  k('rules.entryKey.length'),
);

/** Key entry form: every field required (host name too), company 2-64 characters, key 16 bytes. */
export const keyEntryFormSchema = z.object({
  company: requiredString(k('rules.required')).refine(
    lengthBetween(LIMITS.NAME_MIN, LIMITS.LONG_NAME_MAX),
    k('rules.name.longLength'),
  ),
  version: requiredString(k('rules.required')),
  client: requiredString(k('rules.required')),
  domain: requiredString(k('rules.required')),
  contact: requiredString(k('rules.required')),
  key: entryKeySchema,
  description: requiredString(k('rules.required')),
  enabled: z.boolean({ error: k('rules.required') }),
  hostname: requiredString(k('rules.hostname.required')),
});

export const longitudeSchema = z.preprocess(
  toNumberInput,
  numberInput('rules.required').min(-180, k('rules.longitude.range')).max(180, k('rules.longitude.range')),
);
export const latitudeSchema = z.preprocess(
  toNumberInput,
  numberInput('rules.required').min(-90, k('rules.latitude.range')).max(90, k('rules.latitude.range')),
);
/** Buying, selling, using and generating prices: non-negative. */
export const priceSchema = z.preprocess(toNumberInput, numberInput('rules.required').min(0, k('rules.price.negative')));
export const ratedPowerSchema = z.preprocess(
  toNumberInput,
  numberInput('rules.ratedPower.required', 'rules.ratedPower.invalid').positive(k('rules.ratedPower.invalid')),
);
export const installDateSchema = requiredString(k('rules.installDate.required'));
export const commAddressSchema = requiredString(k('rules.commAddress.required'));

/** Reset and unbind: the user must type YES. */
export function confirmYesError(input: string | undefined | null): RuleMessageKey | undefined {
  return (input ?? '').trim() === 'YES' ? undefined : k('rules.confirmYes.mismatch');
}

// Timezones -----------------------------------------------------------------------------------

/** GMT-12 … GMT+13 in whole hours plus +5:30 and +6:30, as offsets in seconds, ascending. */
export const TIMEZONE_OFFSETS: readonly number[] = [
  ...Array.from({ length: 26 }, (_, i) => (i - 12) * 3600),
  5.5 * 3600,
  6.5 * 3600,
].sort((a, b) => a - b);

export function isTimezoneOffset(seconds: number): boolean {
  return TIMEZONE_OFFSETS.includes(seconds);
}

/** 19800 → "GMT+5:30", -43200 → "GMT-12", 0 → "GMT+0". */
export function timezoneLabel(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const h = Math.floor(abs / 3600);
  const m = Math.round((abs % 3600) / 60);
  return `GMT${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

export const timezoneSchema = z.preprocess(
  toNumberInput,
  numberInput('rules.timezone.required', 'rules.timezone.invalid').refine(isTimezoneOffset, k('rules.timezone.invalid')),
);

// Currencies ----------------------------------------------------------------------------------

/** Spec §3 Options; RMB is accepted as an alias of CNY. */
export const CURRENCIES = ['CNY', 'USD', 'EUR', 'AUD', 'GBP', 'HKD', 'SEK', 'INR', 'MXN', 'BRL', 'PKR', 'ZAR'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CURRENCY_ALIASES: Readonly<Record<string, Currency>> = { RMB: 'CNY' };
export const CURRENCY_SYMBOLS: Record<Currency, string> = {
  CNY: '¥',
  USD: '$',
  EUR: '€',
  AUD: 'A$',
  GBP: '£',
  HKD: 'HK$',
  SEK: 'kr',
  INR: '₹',
  MXN: 'MX$',
  BRL: 'R$',
  PKR: '₨',
  ZAR: 'R',
};

export function normalizeCurrency(input: string | undefined | null): Currency | undefined {
  if (!input) return undefined;
  const up = input.trim().toUpperCase();
  if ((CURRENCIES as readonly string[]).includes(up)) return up as Currency;
  return CURRENCY_ALIASES[up];
}

export const currencySchema = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : (normalizeCurrency(v) ?? v)) : v),
  z.enum(CURRENCIES, { error: (iss) => (iss.input === undefined ? k('rules.currency.required') : k('rules.currency.invalid')) }),
);

// Plants (projects) ------------------------------------------------------------------------------

/** Plant name: 1..64 characters (vendor editPlant). */
export const PLANT_NAME_MAX = 64;
/**
 * A plant picture as addPlant/editPlant take it: the URL uploadPlantImage returned
 * (`/files/plant/<32 hex>.jpg|png`, thumbnails `…-s.jpg|png`).
 */
export const PLANT_IMAGE_URL = /^\/files\/plant\/[0-9a-f]{32}(?:-s)?\.(?:jpg|png)$/;

/**
 * The plant form of the web (spec §3 Project, §5): name 1..64, rated power, time zone, install
 * date and currency required; coordinates in range; the five prices ≥ 0.
 */
export const plantFormSchema = z.object({
  name: requiredString(k('rules.name.required')).refine((s) => charCount(s) <= PLANT_NAME_MAX, k('rules.name.longLength')),
  nominalPower: ratedPowerSchema,
  timezone: timezoneSchema,
  install: installDateSchema,
  currency: currencySchema,
  lon: longitudeSchema.optional(),
  lat: latitudeSchema.optional(),
  soldProfit: priceSchema.optional(),
  selfProfit: priceSchema.optional(),
  purchProfit: priceSchema.optional(),
  consProfit: priceSchema.optional(),
  feedProfit: priceSchema.optional(),
});
export type PlantForm = z.output<typeof plantFormSchema>;

// ---------------------------------------------------------------------------------------------
// Roles, accounts, orders, names
// ---------------------------------------------------------------------------------------------

export const roleRequiredSchema = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.union([z.string().min(1), z.number()], { error: k('rules.role.required') }),
);
export const orderNumberSchema = requiredString(k('rules.orderNumber.required'));
export const hostnameSchema = requiredString(k('rules.hostname.required'));

/** Name fields: 2-32 characters. */
export const nameSchema = requiredString(k('rules.name.required')).refine(
  lengthBetween(LIMITS.NAME_MIN, LIMITS.NAME_MAX),
  k('rules.name.length'),
);
/** Longer name fields: 2-64 characters. */
export const longNameSchema = requiredString(k('rules.name.required')).refine(
  lengthBetween(LIMITS.NAME_MIN, LIMITS.LONG_NAME_MAX),
  k('rules.name.longLength'),
);

// ---------------------------------------------------------------------------------------------
// Devices and tools
// ---------------------------------------------------------------------------------------------

export const snSchema = requiredString(k('rules.sn.required'));
export const devaddrSchema = z.preprocess(
  toNumberInput,
  numberInput('rules.devaddr.required', 'rules.devaddr.invalid')
    .int(k('rules.devaddr.invalid'))
    .min(0, k('rules.devaddr.invalid'))
    .max(255, k('rules.devaddr.invalid')),
);
export const devcodeSchema = z.preprocess(
  toNumberInput,
  numberInput('rules.devcode.required', 'rules.number.invalid').int(k('rules.number.invalid')).min(0, k('rules.number.invalid')),
);

/** Device synchronisation / data tools: SN and address typed twice, device code, date range. */
export const deviceToolFormSchema = z
  .object({
    sn: snSchema,
    snConfirm: snSchema,
    devaddr: devaddrSchema,
    devaddrConfirm: devaddrSchema,
    devcode: devcodeSchema,
    start: requiredString(k('rules.dateRange.required')),
    end: requiredString(k('rules.dateRange.required')),
  })
  .refine((v) => v.sn === v.snConfirm, { error: k('rules.sn.mismatch'), path: ['snConfirm'] })
  .refine((v) => v.devaddr === v.devaddrConfirm, { error: k('rules.devaddr.mismatch'), path: ['devaddrConfirm'] });

/** Device control command: hex bytes separated by spaces, e.g. "AA BB CC". */
export const hexCommandSchema = requiredString(k('rules.command.required')).regex(
  PATTERNS.HEX_COMMAND,
  k('rules.command.format'),
);

/** "AA BB CC" → bytes; undefined when not such a string. */
export function parseHexCommand(s: string): Uint8Array | undefined {
  const t = s.trim();
  if (!PATTERNS.HEX_COMMAND.test(t)) return undefined;
  return Uint8Array.from(t.split(/\s+/), (b) => parseInt(b, 16));
}

/** bytes → "AA BB CC". */
export function formatHexCommand(bytes: Uint8Array | readonly number[]): string {
  return Array.from(bytes, (b) => (b & 0xff).toString(16).toUpperCase().padStart(2, '0')).join(' ');
}

/** Starting step of a command sequence: a non-negative integer. */
export const startStepSchema = z.preprocess(
  toNumberInput,
  numberInput('rules.step.invalid', 'rules.step.invalid').int(k('rules.step.invalid')).min(0, k('rules.step.invalid')),
);

export type ParameterSelectionMode = 'display' | 'compare';

/**
 * Device parameter selection (spec §5): 1 to 7 for display, at most 4 for comparison, and
 * never more than 2 different units. Returns the failing rule's key or undefined.
 */
export function parameterSelectionError(
  selected: ReadonlyArray<{ unit?: string | null } | string>,
  mode: ParameterSelectionMode = 'display',
): RuleMessageKey | undefined {
  if (selected.length < 1) return k('rules.parameters.min');
  if (mode === 'display' && selected.length > LIMITS.PARAMETERS_DISPLAY_MAX) return k('rules.parameters.maxDisplay');
  if (mode === 'compare' && selected.length > LIMITS.PARAMETERS_COMPARE_MAX) return k('rules.parameters.maxCompare');
  const units = new Set(selected.map((p) => (typeof p === 'string' ? p : (p.unit ?? '')).trim()));
  if (units.size > LIMITS.PARAMETERS_UNITS_MAX) return k('rules.parameters.units');
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

export type DateInput = string | Date | null | undefined;

/** Day number (days since 1970-01-01) of a calendar date; strings "YYYY-MM-DD[ HH:mm[:ss]]" or "YYYY/MM/DD". */
export function dayNumber(d: DateInput): number | undefined {
  if (d === null || d === undefined || d === '') return undefined;
  if (d instanceof Date) {
    if (Number.isNaN(d.getTime())) return undefined;
    return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86400000;
  }
  const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/.exec(d.trim());
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const da = Number(m[3]);
  const t = Date.UTC(y, mo - 1, da);
  const check = new Date(t);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== da) return undefined;
  return t / 86400000;
}

/** A date after today (date pickers disable these). */
export function isFutureDate(d: DateInput, today: DateInput = new Date()): boolean {
  const a = dayNumber(d);
  const t = dayNumber(today);
  return a !== undefined && t !== undefined && a > t;
}

export interface DateRangeOptions {
  /** Largest span in calendar days, both ends included. */
  maxDays: number;
  /** Key returned when the span is longer. */
  tooLongKey: RuleMessageKey;
  /** Today, for the no-future-dates rule (default: now, local calendar). */
  today?: DateInput;
  allowFuture?: boolean;
}

/** Checks a date range: both given, valid, ordered, not in the future, not longer than maxDays. */
export function dateRangeError(start: DateInput, end: DateInput, options: DateRangeOptions): RuleMessageKey | undefined {
  if (start === null || start === undefined || start === '' || end === null || end === undefined || end === '') {
    return k('rules.dateRange.required');
  }
  const a = dayNumber(start);
  const b = dayNumber(end);
  if (a === undefined || b === undefined) return k('rules.dateRange.invalid');
  if (a > b) return k('rules.dateRange.order');
  if (!options.allowFuture) {
    const t = dayNumber(options.today ?? new Date());
    if (t !== undefined && b > t) return k('rules.dateRange.future');
  }
  if (b - a + 1 > options.maxDays) return options.tooLongKey;
  return undefined;
}

/** Report export: at most 31 days, no future dates. */
export function reportRangeError(start: DateInput, end: DateInput, today?: DateInput): RuleMessageKey | undefined {
  return dateRangeError(start, end, { maxDays: LIMITS.REPORT_MAX_DAYS, tooLongKey: 'rules.dateRange.reportTooLong', today });
}

/** Datalogger debug/log: at most 3 days, no future dates. */
export function dataloggerLogRangeError(start: DateInput, end: DateInput, today?: DateInput): RuleMessageKey | undefined {
  return dateRangeError(start, end, {
    maxDays: LIMITS.DATALOGGER_LOG_MAX_DAYS,
    tooLongKey: 'rules.dateRange.logTooLong',
    today,
  });
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

export interface FileLike {
  name: string;
  size: number;
}

/** Lower-case extension without the dot ('' when none). */
export function fileExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const i = base.lastIndexOf('.');
  return i <= 0 ? '' : base.slice(i + 1).toLowerCase();
}

export type FirmwareUploadContext = 'manager' | 'upgrade';

/** Firmware: .bin/.hex/.s19; 8 MB in the firmware manager, 1 MB in upgrade management. */
export function firmwareFileError(
  file: FileLike | null | undefined,
  context: FirmwareUploadContext = 'manager',
): RuleMessageKey | undefined {
  if (!file) return k('rules.file.required');
  if (!(FIRMWARE_EXTENSIONS as readonly string[]).includes(fileExtension(file.name))) return k('rules.firmware.type');
  if (context === 'manager' && file.size > FILE_LIMITS.FIRMWARE_MANAGER_BYTES) return k('rules.firmware.sizeManager');
  if (context === 'upgrade' && file.size > FILE_LIMITS.FIRMWARE_UPGRADE_BYTES) return k('rules.firmware.sizeUpgrade');
  return undefined;
}

/** Firmware upload form fields besides the file. */
export const firmwareUploadFormSchema = z.object({
  firmwareName: requiredString(k('rules.firmware.nameRequired')),
  firmwareVersion: requiredString(k('rules.firmware.versionRequired')),
  note: z.string().optional(),
});

export type ImageUploadContext = 'general' | 'project';

/** Images: jpg or png, 8 MB (project images 1 MB). */
export function imageFileError(
  file: FileLike | null | undefined,
  context: ImageUploadContext = 'general',
): RuleMessageKey | undefined {
  if (!file) return k('rules.file.required');
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(fileExtension(file.name))) return k('rules.image.type');
  if (context === 'project' && file.size > FILE_LIMITS.PROJECT_IMAGE_BYTES) return k('rules.image.projectSize');
  if (file.size > FILE_LIMITS.IMAGE_BYTES) return k('rules.image.size');
  return undefined;
}

export type BatchFileKind = 'datalogger' | 'assignment';

/** Batch files: the datalogger import takes xlsx only; account/order assignment xlsx or xls. */
export function batchFileError(file: FileLike | null | undefined, kind: BatchFileKind = 'assignment'): RuleMessageKey | undefined {
  if (!file) return k('rules.file.required');
  const ext = fileExtension(file.name);
  if (kind === 'datalogger') {
    return (BATCH_DATALOGGER_EXTENSIONS as readonly string[]).includes(ext) ? undefined : k('rules.batchFile.xlsx');
  }
  return (BATCH_ASSIGNMENT_EXTENSIONS as readonly string[]).includes(ext) ? undefined : k('rules.batchFile.excel');
}

// ---------------------------------------------------------------------------------------------
// Running rules
// ---------------------------------------------------------------------------------------------

/** The key of the first failing rule, or undefined when the value passes. */
export function ruleErrorKey(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}

/** One key per field (the first issue of each path, joined with "."); empty when valid. */
export function ruleErrors(schema: z.ZodType, value: unknown): Record<string, string> {
  const r = schema.safeParse(value);
  const out: Record<string, string> = {};
  if (r.success) return out;
  for (const issue of r.error.issues) {
    const path = issue.path.map(String).join('.');
    if (!(path in out)) out[path] = issue.message;
  }
  return out;
}
