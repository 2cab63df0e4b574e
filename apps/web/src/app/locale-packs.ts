/**
 * antd and dayjs locales of the 11 interface languages (antd uz_UZ is Latin script → dayjs uz-latn),
 * loaded on demand: only the current language's pack is fetched (main.tsx awaits
 * `loadLocalePack` before the first render; a language switch reloads the page).
 */
import type { Locale as AntdLocale } from 'antd/es/locale';
import type { Locale } from '@sunwatch/protocol';
import dayjs from 'dayjs';

type AntdLoader = () => Promise<{ default: AntdLocale }>;

const ANTD_LOADERS: Record<Locale, AntdLoader> = {
  en_US: () => import('antd/locale/en_US'),
  zh_CN: () => import('antd/locale/zh_CN'),
  id_ID: () => import('antd/locale/id_ID'),
  it_IT: () => import('antd/locale/it_IT'),
  de_DE: () => import('antd/locale/de_DE'),
  fr_FR: () => import('antd/locale/fr_FR'),
  ru_RU: () => import('antd/locale/ru_RU'),
  tr_TR: () => import('antd/locale/tr_TR'),
  uz_UZ: () => import('antd/locale/uz_UZ'),
  nl_NL: () => import('antd/locale/nl_NL'),
  pl_PL: () => import('antd/locale/pl_PL'),
};

export const DAYJS_LOCALES: Record<Locale, string> = {
  en_US: 'en',
  zh_CN: 'zh-cn',
  id_ID: 'id',
  it_IT: 'it',
  de_DE: 'de',
  fr_FR: 'fr',
  ru_RU: 'ru',
  tr_TR: 'tr',
  uz_UZ: 'uz-latn',
  nl_NL: 'nl',
  pl_PL: 'pl',
};

/** dayjs ships English built in; the others register themselves when imported. */
const DAYJS_LOADERS: Record<Exclude<Locale, 'en_US'>, () => Promise<unknown>> = {
  zh_CN: () => import('dayjs/locale/zh-cn'),
  id_ID: () => import('dayjs/locale/id'),
  it_IT: () => import('dayjs/locale/it'),
  de_DE: () => import('dayjs/locale/de'),
  fr_FR: () => import('dayjs/locale/fr'),
  ru_RU: () => import('dayjs/locale/ru'),
  tr_TR: () => import('dayjs/locale/tr'),
  uz_UZ: () => import('dayjs/locale/uz-latn'),
  nl_NL: () => import('dayjs/locale/nl'),
  pl_PL: () => import('dayjs/locale/pl'),
};

const antdPacks = new Map<Locale, AntdLocale>();

/** Fetches the antd and dayjs locale of `locale` (once) and makes dayjs use it. */
export async function loadLocalePack(locale: Locale): Promise<void> {
  if (!antdPacks.has(locale)) {
    const [antd] = await Promise.all([
      ANTD_LOADERS[locale](),
      locale === 'en_US' ? undefined : DAYJS_LOADERS[locale](),
    ]);
    antdPacks.set(locale, antd.default);
  }
  applyDayjsLocale(locale);
}

/** The antd locale of `locale` once loaded; undefined before (antd then speaks English). */
export function antdLocale(locale: Locale): AntdLocale | undefined {
  return antdPacks.get(locale);
}

export function applyDayjsLocale(locale: Locale): void {
  dayjs.locale(DAYJS_LOCALES[locale]);
}
