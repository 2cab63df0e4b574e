/** The 11 interface languages of spec §1, in the order the language picker shows them. */
export const LOCALES = [
  'en_US',
  'zh_CN',
  'id_ID',
  'it_IT',
  'de_DE',
  'fr_FR',
  'ru_RU',
  'tr_TR',
  'uz_UZ',
  'nl_NL',
  'pl_PL',
] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en_US';

/** Native names shown in the language picker. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en_US: 'English',
  zh_CN: '简体中文',
  id_ID: 'Bahasa Indonesia',
  it_IT: 'Italiano',
  de_DE: 'Deutsch',
  fr_FR: 'Français',
  ru_RU: 'Русский',
  tr_TR: 'Türkçe',
  uz_UZ: 'Oʻzbekcha',
  nl_NL: 'Nederlands',
  pl_PL: 'Polski',
};

/**
 * Normalises what clients send (`en_US`, `en-US`, `en`, `zh_cn`, `zh-Hans-CN`, an
 * Accept-Language header) to one of the supported locales, or undefined.
 */
export function normalizeLocale(input: string | undefined | null): Locale | undefined {
  if (!input) return undefined;
  const first = input.split(',')[0]!.split(';')[0]!.trim().replace('-', '_');
  const lower = first.toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const lang = lower.split(/[_-]/)[0];
  return LOCALES.find((l) => l.slice(0, 2).toLowerCase() === lang);
}
