import {
  ApiError,
  DEFAULT_LOCALE,
  errorDesc,
  errorMessage,
  isErrorCode,
  normalizeLocale,
  type Envelope,
  type Locale,
} from '@sunwatch/protocol';
import { ZodError } from 'zod';

/** The call's language: `i18n` or `lang` parameter, else Accept-Language, else en_US. */
export function pickLocale(params: Record<string, unknown>, acceptLanguage: string | undefined): Locale {
  const p = typeof params.i18n === 'string' ? params.i18n : typeof params.lang === 'string' ? params.lang : undefined;
  return normalizeLocale(p) ?? normalizeLocale(acceptLanguage) ?? DEFAULT_LOCALE;
}

/** The error's message in the call's language (protocol i18n catalogues, en_US fallback). */
export function localizedMessage(error: ApiError, locale: Locale): string {
  return errorMessage(error.code, locale, 'general', error.values, error.messageKey);
}

/** The first failing field of a zod error, as a wire name. */
export function zodField(error: ZodError): string {
  const issue = error.issues[0];
  return issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'params';
}

/** Maps anything thrown to the API error it stands for: ApiError as is, ZodError → 6, else 3. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) return new ApiError(6, zodField(error));
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new ApiError(13);
    return new ApiError(6);
  }
  return new ApiError(3);
}

export function errorEnvelope(error: ApiError, locale: Locale): Envelope<never> {
  const code = isErrorCode(error.code) ? error.code : 1;
  return { err: code, desc: error.desc || errorDesc(code), msg: localizedMessage(error, locale) };
}

export function okEnvelope<T>(dat: T): Envelope<T> {
  return dat === undefined ? { err: 0, desc: 'ERR_NONE' } : { err: 0, desc: 'ERR_NONE', dat };
}
