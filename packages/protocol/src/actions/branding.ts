import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, wireInt } from './common.js';
import { HOST_NAME_RE, type NoticeMsgType } from './branding-params.js';

/**
 * Issue 12: server nodes, host-dependent branding, platform notices and contact info (spec §2
 * "Entry page", §7 "Other services"). The entry page calls the two public actions before sign-in;
 * the operator (role 15) writes notices and contact info through the two signed actions.
 */

/** A server node of `queryDomainListNotLogin`: its name and the origin of its API (`''` = this server). */
export interface ServerNode {
  name: string;
  url: string;
}

/** `dat` of `queryDomainApp`: the app of a host and whether its download QR images exist. */
export interface DomainAppDat {
  host: string;
  /** App Store / Play Store links ('' when the host has none for that platform). */
  ios: string;
  android: string;
  /** Paths of the download QR images (`/branding/<host>/ios.png`), '' when there is no image. */
  iosQr: string;
  androidQr: string;
}

/** `data` of the domain check (`/hmi/api/hmi/domain/check/…/checkDomainPass/2`): the host's look and options. */
export interface DomainCheckData {
  /** Background image URL of the entry page ('' = the default look). */
  background: string;
  /** Logo image URL ('' = the default sun). */
  sysLogo: string;
  /** Brand name shown on the entry page ('' = Sunwatch). */
  title: string;
  /** Locales offered by the language picker (empty = all). */
  languages: string[];
  /** A locale the page is forced to ('' = the visitor's choice). */
  forceLanguage: string;
  /** Whether the invitation-code (demo) access is offered. */
  demo: boolean;
  /** Whether the QR-scan login face is offered. */
  qrLogin: boolean;
  /** Whether the host has an app (the app-download prompt). */
  app: boolean;
  /** Filing number shown for Chinese on the main host ('' = none). */
  filingNumber: string;
  /** Version label next to the footer ('' = the web app's version). */
  versionLabel: string;
}

/** Envelope of the domain check (spec §7: `code`, `data.background`, `data.sysLogo`). */
export interface DomainCheckResponse {
  code: number;
  data: DomainCheckData;
}

/** `dat` of `getTask` (spec §7). `id` and `uts` identify the version a visitor dismissed. */
export interface NoticeDat {
  id: number;
  msgType: NoticeMsgType;
  title: string;
  content: string;
  uts: number;
}

/** `dat` of `consultParam/getParam` (spec §7). */
export interface ConsultDat {
  phoneNum: string;
  email: string;
  wechat: string;
  englishName: string;
}

export const queryDomainListNotLogin = defineAction({
  name: 'queryDomainListNotLogin',
  summary: 'The server nodes a visitor may pick before signing in (name, url), from the configuration.',
  params: actionParams({}),
  access: { auth: 'public', permission: null },
  mutates: false,
  result: result<ServerNode[]>(),
});

export const queryDomainApp = defineAction({
  name: 'queryDomainApp',
  summary: 'The app of a host (download links and QR images); err 12 when the host has no app.',
  params: actionParams({
    language: z.string().max(16).optional(),
    host: z.string().max(253).regex(HOST_NAME_RE).optional(),
  }),
  access: { auth: 'public', permission: null },
  mutates: false,
  result: result<DomainAppDat>(),
});

export const setPlatformNotice = defineAction({
  name: 'setPlatformNotice',
  summary:
    'Operator: sets the platform notice of one client language (1 Chinese, 2 others); msgType 2 shows it as a dialog, 0 withdraws it.',
  params: actionParams({
    clientLanguage: wireInt().min(1).max(2),
    msgType: wireInt().min(0).max(2),
    title: z.string().trim().max(100).default(''),
    content: z.string().trim().max(4000).default(''),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<{ id: number; uts: number }>(),
});

export const setConsultParam = defineAction({
  name: 'setConsultParam',
  summary: "Operator: sets the contact info of a host (`appID`, '' = every host without its own).",
  params: actionParams({
    /** Empty values are dropped on the wire: each field defaults to ''. */
    appID: z.union([z.literal(''), z.string().max(253).regex(HOST_NAME_RE)]).default(''),
    phoneNum: z.string().trim().max(32).default(''),
    email: z.union([z.literal(''), z.email().max(120)]).default(''),
    wechat: z.string().trim().max(64).default(''),
    englishName: z.string().trim().max(120).default(''),
  }),
  access: { auth: 'signed', roles: [15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});
