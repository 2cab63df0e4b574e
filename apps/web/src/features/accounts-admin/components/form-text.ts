import i18n from '../../../i18n';
import { ruleText } from '../../../app/rule-text';

/** A message key of the forms: the protocol's `rules.*` keys or this feature's `accounts:*`. */
export function formText(key: string): string {
  return key.startsWith('rules.') ? ruleText(key) : i18n.t(key);
}
