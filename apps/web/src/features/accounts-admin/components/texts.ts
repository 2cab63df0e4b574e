import { ApiCallError, errorMessageKey } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { apiErrorText } from '../../../app/notify';

/** The spec's message for a delete refused with 517 / 518, else the server's message. */
export function deleteErrorText(e: unknown): string {
  if (e instanceof ApiCallError && (e.err === 517 || e.err === 518)) {
    return i18n.t(errorMessageKey(e.err, 'general'), { ns: 'errors' });
  }
  return apiErrorText(e);
}
