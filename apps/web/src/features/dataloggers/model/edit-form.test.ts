import { describe, expect, it } from 'vitest';
import type { CollectorDetail } from '@sunwatch/protocol';
import { editErrors, editParams, formFromDetail } from './edit-form';

const detail = {
  pn: 'SWNORTH0000101',
  alias: 'Garage',
  address: { country: 'DE', province: '', city: 'Hamburg', county: '', town: '', address: '', lon: 9.99, lat: 53.55 },
  nominalPower: 0,
  installDate: '',
  installer: '',
  profit: { currency: '', unitProfit: 0, buyProfit: 0, sellProfit: 0, useProfit: 0, genProfit: 0 },
  timezone: 3600,
  datFetch: 300,
  heartbeat: 60,
} as unknown as CollectorDetail;

describe('datalogger edit form', () => {
  const initial = formFromDetail(detail);

  it('reads the details and sends only what changed', () => {
    expect(initial).toMatchObject({ alias: 'Garage', lon: '9.99', nominalPower: '', timezone: '3600', datFetch: '300' });
    expect(editParams('SWNORTH0000101', initial, initial)).toBeUndefined();
    expect(editParams('SWNORTH0000101', { ...initial, alias: ' Barn ', datFetch: '120' }, initial)).toEqual({
      pn: 'SWNORTH0000101',
      alias: 'Barn',
      datFetch: 120,
    });
  });

  it('lets an alias change through without plant data', () => {
    expect(editErrors({ ...initial, alias: 'Barn' }, initial)).toEqual({});
  });

  it('requires rated power, install date and currency once plant data changes, and prices ≥ 0', () => {
    const e = editErrors({ ...initial, sellProfit: '-1' }, initial);
    expect(e).toMatchObject({
      nominalPower: 'rules.ratedPower.required',
      installDate: 'rules.installDate.required',
      currency: 'rules.currency.required',
      sellProfit: 'rules.price.negative',
    });
    const ok = { ...initial, nominalPower: '5.5', installDate: '2026-01-10', currency: 'EUR', sellProfit: '0.08' };
    expect(editErrors(ok, initial)).toEqual({});
    expect(editParams('P', ok, initial)).toMatchObject({ nominalPower: '5.5', 'profit.currency': 'EUR', 'profit.sellProfit': '0.08' });
  });

  it('checks longitude, latitude, timezone and the intervals', () => {
    expect(editErrors({ ...initial, lon: '181' }, initial)).toEqual({ lon: 'rules.longitude.range' });
    expect(editErrors({ ...initial, lat: '-91' }, initial)).toEqual({ lat: 'rules.latitude.range' });
    expect(editErrors({ ...initial, timezone: '1234' }, initial)).toEqual({ timezone: 'rules.timezone.invalid' });
    expect(editErrors({ ...initial, timezone: '19800' }, initial)).toEqual({});
    expect(editErrors({ ...initial, heartbeat: '5' }, initial)).toEqual({ heartbeat: 'dataloggers:edit.intervalRange' });
  });
});
