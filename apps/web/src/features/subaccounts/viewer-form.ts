/**
 * The viewer (sub-account) form of /generalNew/setting/browseAccount: its validation, composed of
 * the account rules of spec §5 (packages/protocol `rules.ts`), and the wire parameters of
 * addPlantBrowser / editPlantBrowser (vendor-actions.md §4: the password RC4-encrypted with the
 * caller's login secret; an edit sends every field, an empty one clears it).
 */
import {
  confirmPasswordError,
  emailSchema,
  encodeSubAccountPassword,
  passwordSchema,
  phoneSchema,
  ruleErrors,
  usernameSchema,
  type Catalogue,
  type ParamsOf,
  type RuleMessageKey,
} from '@sunwatch/protocol';
import type { ViewerRow } from './api/queries';

export type ViewerFormMode = 'create' | 'edit';

export interface ViewerFormValues {
  usr: string;
  pwd: string;
  confPwd: string;
  email: string;
  mobile: string;
  desc: string;
  enable: boolean;
  pid: number[];
}

export type ViewerField = keyof ViewerFormValues;

/** Longest description the contract accepts. */
export const VIEWER_DESC_MAX = 1024;

export function emptyViewerForm(): ViewerFormValues {
  return { usr: '', pwd: '', confPwd: '', email: '', mobile: '', desc: '', enable: true, pid: [] };
}

/** The form of an existing viewer: password left empty (unchanged unless typed). */
export function viewerFormOf(row: ViewerRow): ViewerFormValues {
  return {
    usr: row.usr,
    pwd: '',
    confPwd: '',
    email: row.email,
    mobile: row.mobile,
    desc: row.desc,
    enable: row.enable,
    pid: [...row.pid],
  };
}

const first = (schema: Parameters<typeof ruleErrors>[0], v: string) => ruleErrors(schema, v)[''] as RuleMessageKey | undefined;

/**
 * The first rule broken by each field (rule keys of the `rules` namespace). Create: username and
 * password required; edit: the username is fixed and a password only when one is typed. E-mail and
 * phone are optional, checked when filled in.
 */
export function viewerFormErrors(v: Partial<ViewerFormValues>, mode: ViewerFormMode): Partial<Record<ViewerField, RuleMessageKey>> {
  const out: Partial<Record<ViewerField, RuleMessageKey>> = {};
  if (mode === 'create') {
    const usr = first(usernameSchema, v.usr ?? '');
    if (usr) out.usr = usr;
  }
  const pwd = v.pwd ?? '';
  if (mode === 'create' || pwd || v.confPwd) {
    const p = first(passwordSchema, pwd);
    if (p) out.pwd = p;
    const c = confirmPasswordError(pwd, v.confPwd);
    if (c) out.confPwd = c;
  }
  const email = (v.email ?? '').trim();
  if (email) {
    const e = first(emailSchema, email);
    if (e) out.email = e;
  }
  const mobile = (v.mobile ?? '').trim();
  if (mobile) {
    const m = first(phoneSchema, mobile);
    if (m) out.mobile = m;
  }
  return out;
}

const ids = (pid: readonly number[]) => [...new Set(pid)].sort((a, b) => a - b).join(',');

export type AddViewerParams = ParamsOf<Catalogue['addPlantBrowser']>;
export type EditViewerParams = ParamsOf<Catalogue['editPlantBrowser']>;

/** addPlantBrowser: optional contact fields only when filled in. */
export function addViewerParams(v: ViewerFormValues, secret: string): AddViewerParams {
  const email = v.email.trim();
  const mobile = v.mobile.trim();
  const desc = v.desc.trim();
  return {
    usr: v.usr.trim(),
    ...encodeSubAccountPassword(secret, v.pwd),
    ...(email ? { email } : {}),
    ...(mobile ? { mobile } : {}),
    ...(desc ? { desc } : {}),
    enable: v.enable,
    pid: ids(v.pid),
  };
}

/** editPlantBrowser: contact, enable and plants always (empty clears); the password only when typed. */
export function editViewerParams(uid: number, v: ViewerFormValues, secret: string): EditViewerParams {
  return {
    uid,
    ...(v.pwd ? encodeSubAccountPassword(secret, v.pwd) : {}),
    email: v.email.trim(),
    mobile: v.mobile.trim(),
    desc: v.desc.trim(),
    enable: v.enable,
    pid: ids(v.pid),
  };
}

/** Which form field a server error belongs to (shown under it), else undefined (under the form). */
export function fieldOfError(err: number): ViewerField | undefined {
  switch (err) {
    case 21: // username invalid
    case 24: // username taken
    case 519: // account already exists
      return 'usr';
    case 16: // password not decryptable
    case 17: // password breaks the rules
      return 'pwd';
    case 20: // e-mail format
    case 26: // e-mail held by another account
      return 'email';
    case 19: // phone format
    case 18: // phone held by another account
      return 'mobile';
    case 260: // a plant out of reach
      return 'pid';
    default:
      return undefined;
  }
}
