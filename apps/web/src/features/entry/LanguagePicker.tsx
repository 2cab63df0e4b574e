/**
 * Language picker of the entry page (spec §1): the 11 interface languages by native name.
 * Choosing one stores it (`sw.lang`, a stored choice wins) and reloads the page
 * (the shell's `setLanguage`). A native select: keyboard, screen readers and the phone's own
 * picker for free, and no antd on the entry page.
 */
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, LOCALE_NAMES, normalizeLocale } from '@sunwatch/protocol';
import type { Locale } from '@sunwatch/protocol';
import { setLanguage } from '../../i18n';
import { GlobalIcon } from './icons';

export interface LanguagePickerProps {
  /** Called with the chosen locale; stores it and reloads by default. */
  onChange?: (locale: Locale) => void;
  /** Locales offered (host branding, issue 12); all 11 when empty. */
  locales?: readonly string[];
}

export function LanguagePicker({ onChange = (l) => setLanguage(l), locales = [] }: LanguagePickerProps) {
  const { t, i18n } = useTranslation('entry');
  const current = normalizeLocale(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LOCALE;
  return (
    <span className="sw-entry-lang">
      <GlobalIcon className="sw-entry-lang-icon" />
      <select
        value={current}
        onChange={(e) => {
          const l = normalizeLocale(e.target.value);
          if (l && l !== current) onChange(l);
        }}
        aria-label={t('language')}
        data-testid="language-picker"
      >
        {LOCALES.filter((l) => locales.length === 0 || locales.includes(l) || l === current).map((l) => (
          <option key={l} value={l} lang={l.replace('_', '-')}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </span>
  );
}

export default LanguagePicker;
