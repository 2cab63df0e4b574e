import { alarmRuleMatches } from '@sunwatch/protocol';
import type { AlarmSuppression } from '../notifications/alarm-notifier.js';
import type { AlarmRulesService } from './alarm-rules.service.js';

/**
 * The notifier's suppression port over the subscriber's alarm filter rules: an alarm is not mailed
 * when one of the subscriber account's enabled `mute` rules matches it at the moment of notifying
 * (spec §2 "Alarms": a matching alarm is not notified, or as the rule says).
 */
export function muteByRules(rules: Pick<AlarmRulesService, 'rulesOf'>): AlarmSuppression {
  return async (alarm, subscriber, at) =>
    (await rules.rulesOf(subscriber.accountId)).some(
      (rule) =>
        rule.mute &&
        alarmRuleMatches(
          rule,
          {
            devcode: alarm.devcode,
            devtype: alarm.devtype,
            code: alarm.code,
            level: alarm.level,
            sn: alarm.sn,
            pn: alarm.pn,
            pid: alarm.plantId,
            timezone: alarm.timezone,
          },
          at,
        ),
    );
}
