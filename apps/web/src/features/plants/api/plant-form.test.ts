import { describe, expect, it } from 'vitest';
import type { PlantWire } from '@sunwatch/protocol';
import {
  defaultTimezone,
  editedParams,
  energyOffsetChanged,
  plantFormErrors,
  plantFormValues,
  plantWireParams,
  roundCoordinate,
  wrapLongitude,
  type PlantFormValues,
} from './plant-form';

const valid: PlantFormValues = {
  name: 'Roof A',
  timezone: 3600,
  nominalPower: '9.8',
  install: '2026-03-01',
  currency: 'EUR',
  lon: '9.99',
  lat: '53.55',
  soldProfit: '0.08',
};

describe('plantFormErrors (the protocol rules per field)', () => {
  it('accepts a complete plant', () => {
    expect(plantFormErrors(valid)).toEqual({});
  });

  it('requires name, rated power, time zone, install date and currency', () => {
    const e = plantFormErrors({ name: ' ' });
    expect(e.name).toBe('rules.name.required');
    expect(e.nominalPower).toBe('rules.ratedPower.required');
    expect(e.timezone).toBe('rules.timezone.required');
    expect(e.install).toBe('rules.installDate.required');
    expect(e.currency).toBe('rules.currency.required');
  });

  it('refuses coordinates out of range and a half-placed location', () => {
    expect(plantFormErrors({ ...valid, lon: '180.5' }).lon).toBe('rules.longitude.range');
    expect(plantFormErrors({ ...valid, lat: '-91' }).lat).toBe('rules.latitude.range');
    expect(plantFormErrors({ ...valid, lon: '-180', lat: '90' })).toEqual({});
    expect(plantFormErrors({ ...valid, lat: '' }).lat).toBe('rules.required');
    expect(plantFormErrors({ ...valid, lon: '', lat: '' })).toEqual({});
  });

  it('refuses negative prices (all five and the income per kWh), an unknown currency and time zone', () => {
    for (const f of ['soldProfit', 'selfProfit', 'purchProfit', 'consProfit', 'feedProfit', 'unitProfit'] as const) {
      expect(plantFormErrors({ ...valid, [f]: '-0.01' })[f], f).toBe('rules.price.negative');
      expect(plantFormErrors({ ...valid, [f]: '0' })[f], f).toBeUndefined();
    }
    expect(plantFormErrors({ ...valid, currency: 'XYZ' }).currency).toBe('rules.currency.invalid');
    expect(plantFormErrors({ ...valid, timezone: 5 * 3600 + 1800 }).timezone).toBeUndefined();
    expect(plantFormErrors({ ...valid, timezone: 7 * 3600 + 1800 }).timezone).toBe('rules.timezone.invalid');
    expect(plantFormErrors({ ...valid, nominalPower: '0' }).nominalPower).toBe('rules.ratedPower.invalid');
    expect(plantFormErrors({ ...valid, energyOffset: 'abc' }).energyOffset).toBe('rules.number.invalid');
  });
});

describe('wire parameters', () => {
  it('uses the vendor dotted names, the time zone on create only', () => {
    const p = plantWireParams({ ...valid, town: 'Altona', unitProfit: '0.3', isDefault: true }, 'create');
    expect(p).toMatchObject({
      name: 'Roof A',
      'address.timezone': 3600,
      'address.lon': '9.99',
      'address.lat': '53.55',
      'address.town': 'Altona',
      'profit.currency': 'EUR',
      'profit.soldProfit': '0.08',
      'profit.unitProfit': '0.3',
      nominalPower: '9.8',
      install: '2026-03-01',
      isDefault: true,
    });
    expect(p).not.toHaveProperty('profit.selfProfit');
    expect(plantWireParams(valid, 'edit')).not.toHaveProperty('address.timezone');
  });

  it('an edit sends only what changed, and clears an emptied price', () => {
    const before = { ...valid, remark: 'old', purchProfit: '0.3' };
    expect(editedParams(before, { ...before })).toEqual({});
    expect(editedParams(before, { ...before, remark: 'new', soldProfit: '0.1' })).toEqual({ remark: 'new', 'profit.soldProfit': '0.1' });
    expect(editedParams(before, { ...before, purchProfit: '' })).toEqual({ 'profit.purchProfit': '' });
    expect(editedParams(before, { ...before, lon: '', lat: '' })).toEqual({ 'address.lon': '', 'address.lat': '' });
  });

  it('reads a plant back into the form and notices an offset change', () => {
    const plant = {
      pid: 7,
      name: 'P',
      remark: '',
      isDefault: false,
      install: '2025-05-01 00:00:00',
      installer: 'Inst',
      nominalPower: '5.0000',
      energyOffset: '12.0000',
      picBig: '',
      picSmall: '',
      address: { country: 'DE', province: '', city: 'Hamburg', county: '', town: '', address: '', lon: '9.9', lat: '53.5', timezone: 3600 },
      profit: { unitProfit: '0.3', currency: 'RMB', soldProfit: '0.1', purchProfit: '0.3', consProfit: '0.2', selfProfit: '0.25', feedProfit: '0.07' },
    } as unknown as PlantWire;
    const v = plantFormValues(plant);
    expect(v).toMatchObject({ install: '2025-05-01', currency: 'CNY', city: 'Hamburg', selfProfit: '0.25', feedProfit: '0.07', timezone: 3600 });
    expect(energyOffsetChanged(plant.energyOffset, '12')).toBe(false);
    expect(energyOffsetChanged(plant.energyOffset, '15')).toBe(true);
    expect(energyOffsetChanged(plant.energyOffset, '')).toBe(false);
  });
});

describe('helpers', () => {
  it('rounds a map pick and folds its longitude', () => {
    expect(roundCoordinate(53.123456789)).toBe(53.123457);
    expect(wrapLongitude(190)).toBe(-170);
    expect(wrapLongitude(-190)).toBe(170);
    expect(wrapLongitude(180)).toBe(180);
    expect(wrapLongitude(12.5)).toBe(12.5);
  });

  it('defaults the time zone to the nearest selectable one', () => {
    expect(defaultTimezone(-60)).toBe(3600);
    expect(defaultTimezone(-330)).toBe(19800);
    expect(defaultTimezone(0)).toBe(0);
  });
});
