import { alarmText } from '@sunwatch/protocol';
import { mailTexts } from './mail-texts.js';

/**
 * The description of an alarm in `locale`, translated at read time from the protocol definitions
 * by the one alarm-text function the alarm lists use too (`alarmText`: the device's fault table
 * entry, the offline alarm, or "Unknown alarm code N"), so a mail says what the list says.
 */
export function alarmDescription(
  alarm: { level: number; code: number; description: string; devcode: number | null },
  locale: string,
): string {
  return alarmText(alarm.devcode, alarm.code, locale, alarm.level);
}

/** The alarm type's name (ALARM_LEVEL) in `locale`. */
export function alarmLevelName(level: number, locale: string): string {
  const names = mailTexts(locale).levels;
  return names[level] ?? names[1];
}
