import { ApiCallError, errorMessageKey } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { apiErrorText } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';

/** A message key of the forms: the protocol's `rules.*` keys or this feature's `accounts:*`. */
export function formText(key: string): string {
  return key.startsWith('rules.') ? ruleText(key) : i18n.t(key);
}

/** The spec's message for a delete refused with 517 / 518, else the server's message. */
export function deleteErrorText(e: unknown): string {
  if (e instanceof ApiCallError && (e.err === 517 || e.err === 518)) {
    return i18n.t(errorMessageKey(e.err, 'general'), { ns: 'errors' });
  }
  return apiErrorText(e);
}
