import { ALARM_LEVEL, getDefinition, translateDeviceText } from '@sunwatch/protocol';
import { mailTexts } from './mail-texts.js';

/**
 * The description of an alarm in `locale`, translated at read time from the protocol
 * definitions (never the stored English text when the definition knows the code): the device's
 * fault table entry for its devcode and code → `translateDeviceText`; the offline alarm (level 3,
 * no device) → the mail texts; anything else (a code the definition does not know) → the stored
 * text, translated when it is a known device text.
 *
 * Kept here until the protocol has a shared alarm-text function (issue 11, s21-al); the lead can
 * point it there at merge.
 */
export function alarmDescription(
  alarm: { level: number; code: number; description: string; devcode: number | null },
  locale: string,
): string {
  if (alarm.level === ALARM_LEVEL.OFFLINE && alarm.devcode === null) return mailTexts(locale).offline;
  const def = alarm.devcode === null ? undefined : getDefinition(alarm.devcode);
  const english = def?.faults.find((f) => f.code === alarm.code)?.description ?? alarm.description;
  return translateDeviceText(english, { kind: 'fault', ...(alarm.devcode !== null ? { devcode: alarm.devcode } : {}) }, locale);
}

/** The alarm type's name (ALARM_LEVEL) in `locale`. */
export function alarmLevelName(level: number, locale: string): string {
  const names = mailTexts(locale).levels;
  return names[level] ?? names[1];
}
