/**
 * Translations of the English (and a few vendor-Chinese) texts the device definitions put on
 * the wire: field titles, chart names, enum labels, fault/warning descriptions, control names,
 * hints and item labels. One flat JSON per locale (English text → translation); en_US is the
 * identity. Numbers with units ("25.0V", "5min", "56.4~59.0V") are not texts and stay as they
 * are. The server passes `deviceWireOptions(call.locale)` to the wire builders (wire.ts).
 */
import { LOCALES, normalizeLocale, type Locale } from '../../locales.js';
import { controlItems } from '../controls.js';
import type { DecodedDevice } from '../decoder.js';
import { DEVICE_DEFINITIONS } from '../registry.js';
import type { DeviceDefinition } from '../types.js';
import type { TextContext, WireOptions } from '../wire.js';
import de_DE from './de_DE.json' with { type: 'json' };
import fr_FR from './fr_FR.json' with { type: 'json' };
import id_ID from './id_ID.json' with { type: 'json' };
import it_IT from './it_IT.json' with { type: 'json' };
import nl_NL from './nl_NL.json' with { type: 'json' };
import pl_PL from './pl_PL.json' with { type: 'json' };
import ru_RU from './ru_RU.json' with { type: 'json' };
import tr_TR from './tr_TR.json' with { type: 'json' };
import uz_UZ from './uz_UZ.json' with { type: 'json' };
import zh_CN from './zh_CN.json' with { type: 'json' };

/** English text → translation, per non-English locale. */
export const DEVICE_TEXTS: Readonly<Record<Exclude<Locale, 'en_US'>, Readonly<Record<string, string>>>> = {
  zh_CN,
  id_ID,
  it_IT,
  de_DE,
  fr_FR,
  ru_RU,
  tr_TR,
  uz_UZ,
  nl_NL,
  pl_PL,
};

/** Where a device text is used; the wire builders' contexts plus the server-side ones. */
export interface DeviceTextContext {
  devcode?: number;
  id?: string;
  kind?: TextContext['kind'] | 'enum' | 'fault' | 'wire';
}

/** Texts of the wire builders themselves (not from a definition) that reach users. */
export const WIRE_TEXTS = ['Timestamp'] as const;

/**
 * A number with its unit, a range of them or a list of ranges ("25.0V", "220Vac", "5min",
 * "56.4~59.0V", "-0.800~-1.000 0.800~1.000", "48V(6.2KW)"), or an input format pattern:
 * shown as-is in every language.
 */
const NOT_TEXT =
  /^(?:[-+]?\d+(?:\.\d+)?(?:[~-][-+]?\d+(?:\.\d+)?)?(?:V|Vac|A|Hz|min|day|W|kW|KW|%)?(?:\(\d+(?:\.\d+)?KW\))?\s*)+$|^yyyy-mm-dd hh:mm:ss$/;

/** Whether a definition string is a text to translate (see NOT_TEXT). */
export function isDeviceText(s: string): boolean {
  return !NOT_TEXT.test(s.trim());
}

/**
 * Every distinct text the definitions (and the builders) can put on the wire: titles of the
 * non-internal fields, chart names, enum labels, fault descriptions, control names, textual
 * hints and item labels. Sorted.
 */
export function collectDeviceTexts(defs: readonly DeviceDefinition[] = DEVICE_DEFINITIONS): Set<string> {
  const out = new Set<string>(WIRE_TEXTS);
  const add = (s: string | undefined) => {
    if (s !== undefined && isDeviceText(s)) out.add(s);
  };
  for (const def of defs) {
    for (const f of def.fields) {
      if (f.internal) continue;
      add(f.title);
      add(f.chart?.name);
      for (const label of Object.values(f.enum ?? {})) add(label);
    }
    for (const fault of def.faults) add(fault.description);
    for (const c of def.controls) {
      add(c.name);
      add(c.hint);
      for (const it of controlItems(c) ?? []) add(it.val);
    }
  }
  return new Set([...out].sort());
}

/**
 * The text in `locale` (any spelling `normalizeLocale` accepts); the English text itself for
 * en_US, an unknown locale or an unknown text. Usable as `WireOptions.translate`.
 */
export function translateDeviceText(english: string, _ctx?: DeviceTextContext, locale?: string | null): string {
  const l = normalizeLocale(locale);
  if (!l || l === 'en_US') return english;
  const hit = DEVICE_TEXTS[l][english];
  return hit !== undefined && hit !== '' ? hit : english;
}

/** Wire builder options for a call's locale (undefined / en_US → English answers). */
export function deviceWireOptions(locale: string | null | undefined): WireOptions & { locale: string | undefined } {
  return { locale: normalizeLocale(locale) ?? undefined, translate: translateDeviceText };
}

/** Enum labels of a decoded sample in `locale` (values shown as labels: "Invert Mode"). */
export function localizeSample<S extends Pick<DecodedDevice, 'values' | 'labels'>>(
  def: DeviceDefinition,
  sample: S,
  locale: string | null | undefined,
): S {
  const l = normalizeLocale(locale);
  if (!l || l === 'en_US') return sample;
  const labels: Record<string, string> = {};
  for (const [id, label] of Object.entries(sample.labels)) {
    labels[id] = translateDeviceText(label, { devcode: def.devcode, id, kind: 'enum' }, l);
  }
  return { ...sample, labels };
}

/** The locales with a device text table (all but en_US). */
export const DEVICE_TEXT_LOCALES = LOCALES.filter((l): l is Exclude<Locale, 'en_US'> => l !== 'en_US');
