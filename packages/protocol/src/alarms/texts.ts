import { normalizeLocale, type Locale } from '../locales.js';
import { getDefinition } from '../devices/registry.js';
import { translateDeviceText } from '../devices/i18n/index.js';
import { ALARM_LEVEL } from '../roles.js';

/**
 * Alarm descriptions are never stored in one language for display: they are resolved at read time
 * from the protocol definitions (the fault table of the device's devcode, translated by the device
 * text tables) in the reader's locale. Texts that no definition holds live here in every locale.
 */
export const ALARM_TEXTS: Readonly<Record<Locale, { offline: string; unknown: string }>> = {
  en_US: { offline: 'Datalogger offline', unknown: 'Unknown alarm code {code}' },
  zh_CN: { offline: '数据采集器离线', unknown: '未知告警代码 {code}' },
  id_ID: { offline: 'Datalogger offline', unknown: 'Kode alarm tidak dikenal {code}' },
  it_IT: { offline: 'Datalogger offline', unknown: 'Codice di allarme sconosciuto {code}' },
  de_DE: { offline: 'Datenlogger offline', unknown: 'Unbekannter Alarmcode {code}' },
  fr_FR: { offline: 'Enregistreur hors ligne', unknown: "Code d'alarme inconnu {code}" },
  ru_RU: { offline: 'Регистратор данных не в сети', unknown: 'Неизвестный код аварии {code}' },
  tr_TR: { offline: 'Veri kaydedici çevrim dışı', unknown: 'Bilinmeyen alarm kodu {code}' },
  uz_UZ: { offline: 'Maʼlumot yigʻuvchi oflayn', unknown: 'Nomaʼlum signal kodi {code}' },
  nl_NL: { offline: 'Datalogger offline', unknown: 'Onbekende alarmcode {code}' },
  pl_PL: { offline: 'Rejestrator danych offline', unknown: 'Nieznany kod alarmu {code}' },
};

/** What the protocol knows of an alarm code: its definition's English text and level, if any. */
export function alarmCodeDef(
  devcode: number | null,
  code: number,
  level?: number,
): { description: string; level: number; known: boolean } {
  if (devcode === null || level === ALARM_LEVEL.OFFLINE) {
    if (code === 263) return { description: ALARM_TEXTS.en_US.offline, level: ALARM_LEVEL.OFFLINE, known: true };
  } else {
    const f = getDefinition(devcode)?.faults.find((x) => x.code === code);
    if (f) return { description: f.description, level: f.level, known: true };
  }
  return { description: ALARM_TEXTS.en_US.unknown.replace('{code}', String(code)), level: level ?? 1, known: false };
}

/**
 * The description of an alarm in `locale` (any spelling normalizeLocale accepts; English when
 * unknown): the definition's fault text translated, "Datalogger offline" for the offline alarm
 * (code 263 without device or at level 3), "Unknown alarm code N" otherwise.
 */
export function alarmText(devcode: number | null, code: number, locale?: string | null, level?: number): string {
  const l: Locale = normalizeLocale(locale) ?? 'en_US';
  if (devcode === null || level === ALARM_LEVEL.OFFLINE) {
    if (code === 263) return ALARM_TEXTS[l].offline;
  } else {
    const f = getDefinition(devcode)?.faults.find((x) => x.code === code);
    if (f) return translateDeviceText(f.description, { devcode, kind: 'fault' }, l);
  }
  return ALARM_TEXTS[l].unknown.replace('{code}', String(code));
}
