import { z } from 'zod';
import { LOCALES } from '../locales.js';
import { defineAction, result } from './define.js';
import { actionParams, idList, page, pageSize, wireBool, wireInt } from './common.js';
import { MAIL_STATES, type EmailPushReportType, type MailState } from './notifications-params.js';

/**
 * Notifications (issue 11; spec §2 "Alarm setting with email setting", §3 "Email push
 * subscription"): an account's e-mail push subscriptions (which plants, which alarm types, which
 * reports, in which language) and, for the operator, the mail outbox / queue. The vendor
 * documents no action for them (vendor-actions.md §8: "notification/e-mail settings [gap]"):
 * the names follow the vendor style (`query…`, `add…`, `edit…`, `del…`).
 *
 * A subscription is the caller's own (`personal`): every role may keep its own, viewers
 * included (spec §2: a viewer keeps alarm e-mails); its plants must be in the caller's reach
 * (a foreign or missing plant → err 260, nothing written), and are re-checked when a mail is sent.
 */

/** `level=0,2` (alarm levels, comma-separated; empty = none). */
const levelList = () =>
  z
    .string()
    .max(16)
    .regex(/^([0-3](,[0-3])*)?$/)
    .transform((s) => (s === '' ? [] : [...new Set(s.split(',').map(Number))].sort()));

/** `report=daily,monthly` (report types, comma-separated; empty = none). */
const reportList = () =>
  z
    .string()
    .max(32)
    .regex(/^((daily|monthly|yearly)(,(daily|monthly|yearly))*)?$/)
    .transform((s) => (s === '' ? [] : [...new Set(s.split(','))] as EmailPushReportType[]));

/** The language of the mails: one of the 11 locales (default: the language of the call). */
const mailLanguage = () => z.enum(LOCALES);

/** One subscription on the wire. */
export interface EmailPushRow {
  id: number;
  email: string;
  /** The subscribed plants (id and name). */
  plants: Array<{ pid: number; pname: string }>;
  /** Alarm levels: 0 warning, 1 error, 2 fault, 3 offline. */
  level: number[];
  report: EmailPushReportType[];
  language: string;
  enable: boolean;
  /** yyyy-MM-dd HH:mm:ss (UTC). */
  createTime: string;
  updateTime: string;
}

/** One mail of the queue (operator view). */
export interface MailRow {
  id: number;
  to: string;
  subject: string;
  /** The plain-text body. */
  text: string;
  kind: string;
  state: MailState;
  attempts: number;
  /** yyyy-MM-dd HH:mm:ss (UTC); '' when not applicable. */
  createTime: string;
  nextAttemptTime: string;
  sentTime: string;
  /** The SMTP server's answer for a sent mail, the last error otherwise. */
  response: string;
  /** The Message-ID the mail was sent with ('' before its first send). */
  messageId: string;
  /** The last error; for `unconfirmed` the reason its delivery is unknown. */
  error: string;
}

export const queryEmailPush = defineAction({
  name: 'queryEmailPush',
  summary:
    "The caller's e-mail push subscriptions: {total,page,pagesize,push:[{id,email,plants:[{pid,pname}],level,report,language,enable,createTime,updateTime}]}.",
  params: actionParams({ page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; push: EmailPushRow[] }>(),
});

export const addEmailPush = defineAction({
  name: 'addEmailPush',
  summary:
    'Subscribes an e-mail address to alarm mails (`level`: 0 warning, 1 error, 2 fault, 3 offline) and reports (`report`: daily, monthly, yearly) of plants `pid` (comma-separated, in the caller\'s reach: 260 otherwise). 20 bad e-mail, 14 the address is already subscribed, 13 too many subscriptions. {id}.',
  params: actionParams({
    email: z.string().max(64),
    pid: idList(),
    level: levelList().default([]),
    report: reportList().default([]),
    language: mailLanguage().optional(),
    enable: wireBool().default(true),
  }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: true,
  result: result<{ id: number }>(),
});

export const editEmailPush = defineAction({
  name: 'editEmailPush',
  summary:
    'Changes one of the caller\'s subscriptions (`id`); absent parameters keep their value, `pid=` / `level=` / `report=` clear the list. 12 no such subscription of the caller, 20, 260, 14 as addEmailPush.',
  params: actionParams({
    id: wireInt().min(1),
    email: z.string().max(64).optional(),
    pid: idList().optional(),
    level: levelList().optional(),
    report: reportList().optional(),
    language: mailLanguage().optional(),
    enable: wireBool().optional(),
  }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const delEmailPush = defineAction({
  name: 'delEmailPush',
  summary: "Deletes one of the caller's subscriptions (`id`); 12 when the caller has none with that id.",
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const queryMailOutbox = defineAction({
  name: 'queryMailOutbox',
  summary:
    'Operator: the mail queue and outbox (mails kept when no SMTP_URL is configured), newest first; filters `state` and `to` (part of the address). {total,page,pagesize,mail:[…]}.',
  params: actionParams({
    state: z.enum(MAIL_STATES).optional(),
    to: z.string().max(64).optional(),
    page: page(),
    pagesize: pageSize(),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; mail: MailRow[] }>(),
});

export const resendMail = defineAction({
  name: 'resendMail',
  summary:
    'Operator: requeues one `unconfirmed` or `failed` mail (`id`) on purpose, sent at the next sender run with its original Message-ID; 12 when there is no such mail, 271 when it is in another state.',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});
