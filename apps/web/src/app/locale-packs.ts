/** antd and dayjs locales of the 11 interface languages (antd uz_UZ is Latin script → dayjs uz-latn). */
import type { Locale as AntdLocale } from 'antd/es/locale';
import type { Locale } from '@sunwatch/protocol';
import dayjs from 'dayjs';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import idID from 'antd/locale/id_ID';
import itIT from 'antd/locale/it_IT';
import deDE from 'antd/locale/de_DE';
import frFR from 'antd/locale/fr_FR';
import ruRU from 'antd/locale/ru_RU';
import trTR from 'antd/locale/tr_TR';
import uzUZ from 'antd/locale/uz_UZ';
import nlNL from 'antd/locale/nl_NL';
import plPL from 'antd/locale/pl_PL';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/id';
import 'dayjs/locale/it';
import 'dayjs/locale/de';
import 'dayjs/locale/fr';
import 'dayjs/locale/ru';
import 'dayjs/locale/tr';
import 'dayjs/locale/uz-latn';
import 'dayjs/locale/nl';
import 'dayjs/locale/pl';

export const ANTD_LOCALES: Record<Locale, AntdLocale> = {
  en_US: enUS,
  zh_CN: zhCN,
  id_ID: idID,
  it_IT: itIT,
  de_DE: deDE,
  fr_FR: frFR,
  ru_RU: ruRU,
  tr_TR: trTR,
  uz_UZ: uzUZ,
  nl_NL: nlNL,
  pl_PL: plPL,
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

export function applyDayjsLocale(locale: Locale): void {
  dayjs.locale(DAYJS_LOCALES[locale]);
}
