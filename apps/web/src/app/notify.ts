/**
 * Notices of spec §8: a message box. `showApiError` prefers the server's message in the
 * call's language (`e.msg`), else the `errors` namespace by code.
 */
import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { ApiCallError, errorMessageKey, type ErrorContext } from '@sunwatch/protocol';
import i18n from '../i18n';

let holder: MessageInstance | undefined;

/** Providers register the context-aware instance of antd's App. */
export function setMessageInstance(m: MessageInstance | undefined): void {
  holder = m;
}

export function notice(): MessageInstance {
  return holder ?? staticMessage;
}

export function apiErrorText(e: unknown, context: ErrorContext = 'general'): string {
  if (e instanceof ApiCallError) {
    if (e.msg) return e.msg;
    const key = errorMessageKey(e.err, context);
    return i18n.t(key, { ns: 'errors', defaultValue: i18n.t('common:error.code', { code: e.err }) });
  }
  return i18n.t('3', { ns: 'errors', defaultValue: i18n.t('common:error.unknown') });
}

export function showApiError(e: unknown, context: ErrorContext = 'general'): void {
  void notice().error(apiErrorText(e, context));
}
