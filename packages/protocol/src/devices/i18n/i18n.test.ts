import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../locales.js';
import { controlItems } from '../controls.js';
import { DEVICE_DEFINITIONS, getDefinition } from '../registry.js';
import type { DeviceDefinition } from '../types.js';
import {
  toChartsFields,
  toChartsFieldsByType,
  toCtrlFields,
  toDeviceParsEs,
  toLastDataList,
  toSPLastData,
} from '../wire.js';
import {
  DEVICE_TEXTS,
  DEVICE_TEXT_LOCALES,
  collectDeviceTexts,
  deviceWireOptions,
  isDeviceText,
  localizeSample,
  translateDeviceText,
} from './index.js';

const TEXTS = collectDeviceTexts();

/** A sample with a value for every field and the label of every enum field. */
function sampleOf(def: DeviceDefinition) {
  const values: Record<string, number> = {};
  const labels: Record<string, string> = {};
  for (const f of def.fields) {
    const first = f.enum ? Object.entries(f.enum)[0] : undefined;
    values[f.id] = first ? Number(first[0]) : 1;
    if (first) labels[f.id] = first[1];
  }
  return { values, labels };
}

describe('device texts', () => {
  it('collects the texts of every definition (titles, charts, enums, faults, controls)', () => {
    expect(TEXTS.size).toBeGreaterThan(300);
    for (const t of ['Mains OK', 'Invert Mode', 'UPS', 'Appliance', 'Nonimal Output Apparent Power', 'Timestamp']) {
      expect(TEXTS.has(t), t).toBe(true);
    }
    for (const def of DEVICE_DEFINITIONS) {
      for (const f of def.fields.filter((x) => !x.internal)) {
        expect(TEXTS.has(f.title), f.title).toBe(true);
        for (const l of Object.values(f.enum ?? {})) if (isDeviceText(l)) expect(TEXTS.has(l), l).toBe(true);
      }
      for (const x of def.faults) expect(TEXTS.has(x.description), x.description).toBe(true);
      for (const c of def.controls) {
        expect(TEXTS.has(c.name), c.name).toBe(true);
        for (const it of controlItems(c) ?? []) expect(TEXTS.has(it.val) || !isDeviceText(it.val), it.val).toBe(true);
      }
    }
  });

  it('leaves numbers with units, ranges and format patterns out', () => {
    for (const s of [
      '25.0V',
      '220Vac',
      '5min',
      '1day',
      '56.4~59.0V',
      '-0.800~-1.000 0.800~1.000',
      '48V(6.2KW)',
      '1-90',
    ]) {
      expect(isDeviceText(s), s).toBe(false);
    }
    expect(isDeviceText('yyyy-mm-dd hh:mm:ss')).toBe(false);
    expect(isDeviceText('Li1')).toBe(true);
  });

  it.each(DEVICE_TEXT_LOCALES)('%s translates every text, with no extra keys', (locale) => {
    const table = DEVICE_TEXTS[locale];
    const missing = [...TEXTS].filter((t) => typeof table[t] !== 'string' || table[t]!.trim() === '');
    expect(missing).toEqual([]);
    expect(Object.keys(table).filter((k) => !TEXTS.has(k))).toEqual([]);
    for (const [en, tr] of Object.entries(table)) {
      expect(tr, en).toBe(tr.trim());
      // Numbers (L1, PV2, 100A, 4777.2) survive translation.
      for (const n of en.match(/\d+(?:\.\d+)?/g) ?? []) expect(tr.includes(n), `${locale}: ${en} → ${tr}`).toBe(true);
    }
  });

  it('Uzbek (Latin) uses the modifier letters ʻ / ʼ, not ASCII apostrophes', () => {
    for (const [en, tr] of Object.entries(DEVICE_TEXTS.uz_UZ)) expect(/['‘’]/.test(tr), `${en} → ${tr}`).toBe(false);
  });

  it('falls back to English for unknown texts and locales; accepts locale spellings', () => {
    expect(translateDeviceText('Grid Frequency', undefined, 'de_DE')).toBe('Netzfrequenz');
    expect(translateDeviceText('Grid Frequency', undefined, 'de-DE')).toBe('Netzfrequenz');
    expect(translateDeviceText('Grid Frequency', undefined, 'de')).toBe('Netzfrequenz');
    expect(translateDeviceText('AC Input Frequency', undefined, 'fr_FR')).toBe("Fréquence d'entrée CA");
    expect(translateDeviceText('Nonimal Output Active Power', undefined, 'de_DE')).toBe('Nennausgangswirkleistung');
    expect(translateDeviceText('Grid Frequency', undefined, 'en_US')).toBe('Grid Frequency');
    expect(translateDeviceText('Grid Frequency', undefined, undefined)).toBe('Grid Frequency');
    expect(translateDeviceText('Grid Frequency', undefined, 'xx_XX')).toBe('Grid Frequency');
    expect(translateDeviceText('No such text', undefined, 'de_DE')).toBe('No such text');
    expect(translateDeviceText('25.0V', undefined, 'ru_RU')).toBe('25.0V');
    expect(deviceWireOptions('de-de').locale).toBe('de_DE');
    expect(deviceWireOptions(undefined).locale).toBeUndefined();
    expect(LOCALES.length).toBe(DEVICE_TEXT_LOCALES.length + 1);
  });
});

describe('wire builders with deviceWireOptions', () => {
  it.each(DEVICE_DEFINITIONS.map((d) => [d.devcode, d] as const))(
    'devcode %i: English answers are byte-identical without a locale and with en_US',
    (_code, def) => {
      const s = sampleOf(def);
      const gts = '2026-01-02 03:04:05';
      const plain = JSON.stringify([
        toSPLastData(def, s, gts),
        toLastDataList(def, s, 7, gts),
        toDeviceParsEs(def, s),
        toChartsFields(def, 3),
        toChartsFieldsByType(def),
        toCtrlFields(def),
      ]);
      for (const locale of [undefined, 'en_US', 'en', 'xx']) {
        const o = deviceWireOptions(locale);
        const ls = localizeSample(def, s, locale);
        const got = JSON.stringify([
          toSPLastData(def, ls, gts, o),
          toLastDataList(def, ls, 7, gts, o),
          toDeviceParsEs(def, ls, o),
          toChartsFields(def, 3, o),
          toChartsFieldsByType(def, o),
          toCtrlFields(def, o),
        ]);
        expect(got, String(locale)).toBe(plain);
      }
    },
  );

  it('de_DE: titles, chart names, enum labels and control texts come out in German', () => {
    const def = getDefinition(2341)!;
    const s = sampleOf(def);
    const o = deviceWireOptions('de_DE');
    const last = toSPLastData(def, localizeSample(def, s, 'de_DE'), 'x', o);
    const gd = last.pars.gd_!;
    expect(gd.find((i) => i.id === 'gd_ac_input_frequency')?.par).toBe('AC-Eingangsfrequenz');
    const mains = gd.find((i) => i.par === 'Netzstatus');
    expect(mains?.val).toMatch(/^Netz /);
    const all = Object.values(last.pars).flat();
    for (const i of all) expect(translateDeviceText(i.par, undefined, 'de_DE')).toBe(i.par);
    expect(toChartsFields(def, 0, o).map((c) => c.name)).toEqual(
      toChartsFields(def, 0).map((c) => translateDeviceText(c.name, undefined, 'de_DE')),
    );
    const ctrl = toCtrlFields(def, o).field;
    expect(ctrl.some((c) => c.name === 'Priorität der Ausgangsquelle')).toBe(true);
  });

  it('every locale changes at least the titles of every device', () => {
    for (const locale of DEVICE_TEXT_LOCALES) {
      for (const def of DEVICE_DEFINITIONS) {
        const en = toSPLastData(def, sampleOf(def), 'x');
        const tr = toSPLastData(def, sampleOf(def), 'x', deviceWireOptions(locale));
        expect(JSON.stringify(tr), `${locale} ${def.devcode}`).not.toBe(JSON.stringify(en));
      }
    }
  });
});
