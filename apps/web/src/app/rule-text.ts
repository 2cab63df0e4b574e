import { RULE_MESSAGE_VALUES, type RuleMessageKey } from '@sunwatch/protocol';
import i18n from '../i18n';

/** Renders a validation-rule key of the protocol package (`rules` namespace, flat keys). */
export function ruleText(key: string): string {
  const values = RULE_MESSAGE_VALUES[key as RuleMessageKey] ?? {};
  return i18n.t(key, { ns: 'rules', ...values });
}
