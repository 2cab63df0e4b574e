import en_US_errors from './en_US/errors.json' with { type: 'json' };
import en_US_rules from './en_US/rules.json' with { type: 'json' };
import zh_CN_errors from './zh_CN/errors.json' with { type: 'json' };
import zh_CN_rules from './zh_CN/rules.json' with { type: 'json' };
import id_ID_errors from './id_ID/errors.json' with { type: 'json' };
import id_ID_rules from './id_ID/rules.json' with { type: 'json' };
import it_IT_errors from './it_IT/errors.json' with { type: 'json' };
import it_IT_rules from './it_IT/rules.json' with { type: 'json' };
import de_DE_errors from './de_DE/errors.json' with { type: 'json' };
import de_DE_rules from './de_DE/rules.json' with { type: 'json' };
import fr_FR_errors from './fr_FR/errors.json' with { type: 'json' };
import fr_FR_rules from './fr_FR/rules.json' with { type: 'json' };
import ru_RU_errors from './ru_RU/errors.json' with { type: 'json' };
import ru_RU_rules from './ru_RU/rules.json' with { type: 'json' };
import tr_TR_errors from './tr_TR/errors.json' with { type: 'json' };
import tr_TR_rules from './tr_TR/rules.json' with { type: 'json' };
import uz_UZ_errors from './uz_UZ/errors.json' with { type: 'json' };
import uz_UZ_rules from './uz_UZ/rules.json' with { type: 'json' };
import nl_NL_errors from './nl_NL/errors.json' with { type: 'json' };
import nl_NL_rules from './nl_NL/rules.json' with { type: 'json' };
import pl_PL_errors from './pl_PL/errors.json' with { type: 'json' };
import pl_PL_rules from './pl_PL/rules.json' with { type: 'json' };
import { DEFAULT_LOCALE, normalizeLocale, type Locale } from '../locales.js';
import { decodeUpgradeReason } from '../firmware.js';
import { decodeStrategyPause } from '../actions/upgrade-strategies-params.js';
import { errorDesc, errorMessageKey, type ErrorContext } from '../errors.js';
import { RULE_MESSAGE_VALUES, type RuleMessageKey } from '../rules.js';

export interface ProtocolMessages {
  /** `errors.json`: keyed by code, `deviceControl.<code>`, `orderAllocation.<code>`, `special.*`. */
  errors: Record<string, string>;
  /** `rules.json`: the validation messages of rules.ts, keyed `rules.*`. */
  rules: Record<string, string>;
}

/** The protocol's message catalogues in all 11 languages (flat keys). */
export const PROTOCOL_MESSAGES: Record<Locale, ProtocolMessages> = {
  en_US: { errors: en_US_errors, rules: en_US_rules },
  zh_CN: { errors: zh_CN_errors, rules: zh_CN_rules },
  id_ID: { errors: id_ID_errors, rules: id_ID_rules },
  it_IT: { errors: it_IT_errors, rules: it_IT_rules },
  de_DE: { errors: de_DE_errors, rules: de_DE_rules },
  fr_FR: { errors: fr_FR_errors, rules: fr_FR_rules },
  ru_RU: { errors: ru_RU_errors, rules: ru_RU_rules },
  tr_TR: { errors: tr_TR_errors, rules: tr_TR_rules },
  uz_UZ: { errors: uz_UZ_errors, rules: uz_UZ_rules },
  nl_NL: { errors: nl_NL_errors, rules: nl_NL_rules },
  pl_PL: { errors: pl_PL_errors, rules: pl_PL_rules },
};

export type InterpolationValues = Record<string, string | number>;

/** i18next-style `{{name}}` interpolation; unknown names are left as they are. */
export function interpolate(text: string, values?: InterpolationValues): string {
  if (!values) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}

function lookup(locale: Locale, book: keyof ProtocolMessages, key: string): string | undefined {
  const own = PROTOCOL_MESSAGES[locale]?.[book];
  if (own && Object.prototype.hasOwnProperty.call(own, key)) return own[key];
  const en = PROTOCOL_MESSAGES[DEFAULT_LOCALE][book];
  return Object.prototype.hasOwnProperty.call(en, key) ? en[key] : undefined;
}

/**
 * The localised message of an error code, falling back to en_US and then to the wire desc.
 * `messageKey` (e.g. `special.loginThrottled`, or a `rules.*` key) takes precedence when
 * it exists; `context` picks the device-control or order-allocation wording.
 */
export function errorMessage(
  code: number,
  locale: Locale,
  context?: ErrorContext,
  values?: InterpolationValues,
  messageKey?: string,
): string {
  let text: string | undefined;
  if (messageKey) {
    text = messageKey.startsWith('rules.')
      ? lookup(locale, 'rules', messageKey)
      : (lookup(locale, 'errors', messageKey) ?? lookup(locale, 'rules', messageKey));
    if (text !== undefined && messageKey.startsWith('rules.')) {
      values = { ...RULE_MESSAGE_VALUES[messageKey as RuleMessageKey], ...values };
    }
  }
  text ??= lookup(locale, 'errors', errorMessageKey(code, context ?? 'general'));
  text ??= lookup(locale, 'errors', String(code));
  // An unknown code reads as a plain failure rather than a wire name.
  text ??= lookup(locale, 'errors', '1');
  return interpolate(text ?? errorDesc(code), values);
}

/** The localised text of a validation rule key, with its default `{{min}}`/`{{max}}` filled in. */
export function ruleMessage(key: string, locale: Locale, values?: InterpolationValues): string {
  const text = lookup(locale, 'rules', key);
  if (text === undefined) return key;
  return interpolate(text, { ...RULE_MESSAGE_VALUES[key as RuleMessageKey], ...values });
}

/**
 * An upgrade task's stored reason (`reason:<code>[|<detail>]`, firmware.ts) in `locale`: the
 * catalogue's `upgradeReason.<code>`, then the datalogger's detail after a colon. '' stays '';
 * legacy free text (no prefix) and an unknown code are returned as stored.
 */
export function upgradeReasonText(stored: string | null | undefined, locale: Locale | string | null | undefined): string {
  if (!stored) return '';
  const r = decodeUpgradeReason(stored);
  if (!r) return stored;
  const l = normalizeLocale(typeof locale === 'string' ? locale : undefined) ?? DEFAULT_LOCALE;
  const text = lookup(l, 'errors', `upgradeReason.${r.code}`) ?? r.code;
  if (!r.detail) return text;
  return `${text}${l === 'zh_CN' ? '：' : ': '}${r.detail}`;
}

/**
 * A strategy's stored pause reason (`pause:<code>|<params>`, actions/upgrade-strategies-params.ts)
 * in `locale`: the catalogue's `strategyPause.<code>` with its parameters (`{{stage}}` is the
 * translated stage name `strategyPause.stage<n>`). '' stays ''; legacy prose and an unknown code
 * are returned as stored.
 */
export function strategyPauseText(stored: string | null | undefined, locale: Locale | string | null | undefined): string {
  if (!stored) return '';
  const r = decodeStrategyPause(stored);
  if (!r) return stored;
  const l = normalizeLocale(typeof locale === 'string' ? locale : undefined) ?? DEFAULT_LOCALE;
  const text = lookup(l, 'errors', `strategyPause.${r.code}`) ?? r.code;
  const values: InterpolationValues = { ...r.params };
  if (r.params.stage !== undefined) values.stage = lookup(l, 'errors', `strategyPause.stage${r.params.stage}`) ?? String(r.params.stage);
  return interpolate(text, values);
}
