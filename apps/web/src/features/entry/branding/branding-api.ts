/**
 * The entry page's other services (spec §7), always asked of the server that served the page:
 * the domain check (look and options of this host), the notice (getTask), the contact info
 * (consultParam/getParam) and the app of the host (queryDomainApp).
 */
import { WEB_COMPANY_KEY, createApiClient } from '@sunwatch/protocol';
import type { ConsultDat, DomainAppDat, DomainCheckData, DomainCheckResponse, NoticeDat } from '@sunwatch/protocol';
import { currentLocale } from '../../../i18n';

export const DOMAIN_CHECK_PATH = '/hmi/api/hmi/domain/check/shineOrDess/auth/checkDomainPass/2';

/** Today's look: what the page shows until (or unless) the domain check answers. */
export const DEFAULT_BRANDING: DomainCheckData = {
  background: '',
  sysLogo: '',
  title: '',
  languages: [],
  forceLanguage: '',
  demo: true,
  qrLogin: true,
  app: false,
  filingNumber: '',
  versionLabel: '',
};

const own = createApiClient({ baseUrl: '/public/', companyKey: WEB_COMPANY_KEY, getLocale: () => currentLocale() });

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

export async function fetchBranding(host = location.hostname): Promise<DomainCheckData> {
  const r = await getJson<DomainCheckResponse>(`${DOMAIN_CHECK_PATH}?domainName=${encodeURIComponent(host)}`);
  if (r.code !== 0 || !r.data) throw new Error(`domain check: code ${r.code}`);
  return { ...DEFAULT_BRANDING, ...r.data };
}

/** client_language 1 for Chinese, else 2 (spec §7). Undefined when there is no notice. */
export async function fetchNotice(locale: string): Promise<NoticeDat | undefined> {
  const lang = locale.startsWith('zh') ? 1 : 2;
  const r = await getJson<{ err: number; dat?: NoticeDat }>(
    `/getTask?client=1&client_account=0&client_content=2&client_language=${lang}`,
  );
  return r.err === 0 && r.dat ? r.dat : undefined;
}

export async function fetchContact(locale: string, host = location.hostname): Promise<ConsultDat> {
  const r = await getJson<{ err: number; dat?: ConsultDat }>(
    `/consultParam/getParam?i18n=${encodeURIComponent(locale)}&appID=${encodeURIComponent(host)}`,
  );
  if (r.err !== 0 || !r.dat) throw new Error(`getParam: err ${r.err}`);
  return r.dat;
}

export function fetchApp(locale: string, host = location.hostname): Promise<DomainAppDat> {
  return own.call('queryDomainApp', { language: locale, host });
}
