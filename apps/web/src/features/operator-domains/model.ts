/** Pure helpers of the custom-domain and passwordMaintenance pages: form values ↔ wire parameters, checks. */
import {
  CUSTOM_DOMAIN_IMAGE_EXTENSIONS,
  CUSTOM_DOMAIN_IMAGE_MAX_BYTES,
  HOST_NAME_RE,
  isValidCtrlPwd,
  type CustomDomainRow,
  type Locale,
} from '@sunwatch/protocol';

export interface DomainFormValues {
  host: string;
  vendor?: number;
  title: string;
  languages: Locale[];
  forceLanguage?: Locale;
  demo: boolean;
  qrLogin: boolean;
  phoneNum: string;
  email: string;
  wechat: string;
  englishName: string;
  enabled: boolean;
}

export function domainFormValuesOf(r?: CustomDomainRow): DomainFormValues {
  return {
    host: r?.host ?? '',
    vendor: r && r.vendorId > 0 ? r.vendorId : undefined,
    title: r?.title ?? '',
    languages: r?.languages ?? [],
    forceLanguage: r?.forceLanguage || undefined,
    demo: r?.demo ?? true,
    qrLogin: r?.qrLogin ?? true,
    phoneNum: r?.phoneNum ?? '',
    email: r?.email ?? '',
    wechat: r?.wechat ?? '',
    englishName: r?.englishName ?? '',
    enabled: r?.enabled ?? true,
  };
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The first problem per field, as a key of the page's texts (`error.<key>`). */
export function domainFormErrors(v: DomainFormValues): Partial<Record<keyof DomainFormValues, string>> {
  const errs: Partial<Record<keyof DomainFormValues, string>> = {};
  const host = v.host.trim().toLowerCase();
  if (host === '') errs.host = 'hostRequired';
  else if (!HOST_NAME_RE.test(host)) errs.host = 'hostInvalid';
  if (!v.vendor) errs.vendor = 'vendorRequired';
  if (v.forceLanguage && v.languages.length > 0 && !v.languages.includes(v.forceLanguage)) {
    errs.forceLanguage = 'forceNotOffered';
  }
  if (v.email.trim() !== '' && !EMAIL_RE.test(v.email.trim())) errs.email = 'emailInvalid';
  return errs;
}

/** The wire fields of the form. */
export function domainWireParams(v: DomainFormValues) {
  return {
    host: v.host.trim().toLowerCase(),
    vendor: v.vendor!,
    title: v.title.trim(),
    languages: v.languages.join(','),
    forceLanguage: v.forceLanguage ?? ('' as const),
    demo: v.demo ? ('1' as const) : ('0' as const),
    qrLogin: v.qrLogin ? ('1' as const) : ('0' as const),
    phoneNum: v.phoneNum.trim(),
    email: v.email.trim(),
    wechat: v.wechat.trim(),
    englishName: v.englishName.trim(),
    enabled: v.enabled ? ('1' as const) : ('0' as const),
  };
}

/**
 * The first check of a picked picture before it is sent ('' when it may go): its name's
 * extension and its size. The server checks its bytes again (an svg with scripts is refused there).
 */
export function imageFileProblem(file: { name: string; size: number }): '' | 'imageType' | 'imageSize' {
  const dot = file.name.lastIndexOf('.');
  const ext = dot < 0 ? '' : file.name.slice(dot).toLowerCase();
  if (!(CUSTOM_DOMAIN_IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return 'imageType';
  if (file.size > CUSTOM_DOMAIN_IMAGE_MAX_BYTES) return 'imageSize';
  return '';
}

/** The password form (entered twice): the first problem per field, as a key of the page's texts. */
export function ctrlPwdErrors(pwd: string, confirm: string): { pwd?: string; confirm?: string } {
  if (!isValidCtrlPwd(pwd)) return { pwd: 'pwdRule' };
  if (pwd !== confirm) return { confirm: 'pwdMismatch' };
  return {};
}
