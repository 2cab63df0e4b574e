/**
 * Language picker of the entry page (spec §1): the 11 interface languages by native name.
 * Choosing one stores it (`sw.lang`, a stored choice wins) and reloads the page
 * (the shell's `setLanguage`).
 */
import { Select } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, LOCALE_NAMES, normalizeLocale } from '@sunwatch/protocol';
import type { Locale } from '@sunwatch/protocol';
import { setLanguage } from '../../i18n';

export interface LanguagePickerProps {
  /** Called with the chosen locale; stores it and reloads by default. */
  onChange?: (locale: Locale) => void;
}

export function LanguagePicker({ onChange = (l) => setLanguage(l) }: LanguagePickerProps) {
  const { t, i18n } = useTranslation('entry');
  const current = normalizeLocale(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LOCALE;
  return (
    <Select<Locale>
      value={current}
      onChange={(l) => {
        if (l !== current) onChange(l);
      }}
      options={LOCALES.map((l) => ({ value: l, label: <span lang={l.replace('_', '-')}>{LOCALE_NAMES[l]}</span> }))}
      prefix={<GlobalOutlined />}
      aria-label={t('language')}
      variant="borderless"
      popupMatchSelectWidth={false}
      style={{ minWidth: 150 }}
      data-testid="language-picker"
    />
  );
}

export default LanguagePicker;
