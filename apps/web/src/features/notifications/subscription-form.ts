/**
 * The e-mail push subscription form (spec §3 "Email push subscription": email, plants, alarm
 * types, report types; plus the mail language and on/off): its rules and the wire parameters of
 * addEmailPush / editEmailPush (packages/protocol actions/notifications.ts). One model serves
 * both settings pages: /setting/alarmform (alarm mails) and /setting/reportsubscribe (report
 * mails) edit the same subscriptions, each page starting a new one with its own kind of mail.
 */
import {
  EMAIL_PUSH_ALARM_LEVELS,
  EMAIL_PUSH_MAX_PLANTS,
  EMAIL_PUSH_REPORT_TYPES,
  emailSchema,
  ruleErrors,
  type Catalogue,
  type EmailPushReportType,
  type EmailPushRow,
  type Locale,
  type ParamsOf,
} from '@sunwatch/protocol';

export type AlarmLevel = (typeof EMAIL_PUSH_ALARM_LEVELS)[number];

export interface SubscriptionFormValues {
  email: string;
  pid: number[];
  level: AlarmLevel[];
  report: EmailPushReportType[];
  language: Locale;
  enable: boolean;
}

export type SubscriptionField = keyof SubscriptionFormValues;

/** Which page starts the form: a new subscription gets that page's kind of mail. */
export type SubscriptionFocus = 'alarm' | 'report';

/** Alarm types a user picks (spec §3: warning, error, fault; offline is an alarm type too). */
export const ALARM_LEVEL_KEYS: Record<AlarmLevel, string> = { 0: 'warning', 1: 'error', 2: 'fault', 3: 'offline' };

export function emptySubscription(focus: SubscriptionFocus, language: Locale): SubscriptionFormValues {
  return {
    email: '',
    pid: [],
    level: focus === 'alarm' ? [1, 2] : [],
    report: focus === 'report' ? ['daily'] : [],
    language,
    enable: true,
  };
}

export function subscriptionFormOf(row: EmailPushRow): SubscriptionFormValues {
  return {
    email: row.email,
    pid: row.plants.map((p) => p.pid),
    level: row.level.filter((l): l is AlarmLevel => (EMAIL_PUSH_ALARM_LEVELS as readonly number[]).includes(l)),
    report: [...row.report],
    language: row.language as Locale,
    enable: row.enable,
  };
}

/**
 * The first broken rule of each field: a `rules` key (the protocol's e-mail rule) or a key of
 * this feature's namespace (`notifications:rule.*`).
 */
export function subscriptionErrors(v: Partial<SubscriptionFormValues>): Partial<Record<SubscriptionField, string>> {
  const out: Partial<Record<SubscriptionField, string>> = {};
  const email = ruleErrors(emailSchema, (v.email ?? '').trim())[''];
  if (email) out.email = email;
  const pid = v.pid ?? [];
  if (pid.length === 0) out.pid = 'notifications:rule.plantsRequired';
  else if (pid.length > EMAIL_PUSH_MAX_PLANTS) out.pid = 'notifications:rule.plantsTooMany';
  if ((v.level ?? []).length === 0 && (v.report ?? []).length === 0) {
    out.level = 'notifications:rule.nothingToSend';
    out.report = 'notifications:rule.nothingToSend';
  }
  return out;
}

const list = <T extends string | number>(xs: readonly T[], order: readonly T[]) =>
  order.filter((x) => xs.includes(x)).join(',');

export type AddEmailPushParams = ParamsOf<Catalogue['addEmailPush']>;
export type EditEmailPushParams = ParamsOf<Catalogue['editEmailPush']>;

/** addEmailPush / editEmailPush parameters: every field (an empty list clears it on edit). */
export function subscriptionParams(v: SubscriptionFormValues): AddEmailPushParams {
  return {
    email: v.email.trim(),
    pid: [...new Set(v.pid)].sort((a, b) => a - b).join(','),
    level: list(v.level, EMAIL_PUSH_ALARM_LEVELS),
    report: list(v.report, EMAIL_PUSH_REPORT_TYPES),
    language: v.language,
    enable: v.enable,
  };
}

/** The form field a server error belongs to (20 bad e-mail, 14 already subscribed, 260 foreign plant). */
export function fieldOfError(err: number): SubscriptionField | undefined {
  if (err === 20 || err === 14) return 'email';
  if (err === 260) return 'pid';
  return undefined;
}
