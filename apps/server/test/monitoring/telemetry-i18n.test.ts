import { DEVCODE_2341, DEVCODE_5121, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertDatalogger,
  insertDevice,
  insertPlant,
  insertSamples,
} from '../factories/telemetry-rows.js';
import { fmtTs } from '../../src/shared/local-time.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';

const TZ = 28800;

type Last = { gts: string; pars: Record<string, Array<{ id: string; par: string; val: string; unit?: string }>> };
type Params = Record<string, string | number>;

/** Device answers in the call's language (i18n / lang), English ones unchanged. */
describe.each(engines)('device texts follow the call locale ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;
  let plant = 0;
  let date = '';
  const A = { pn: 'I18N0000000001', devcode: 5121, devaddr: 1, sn: 'I18N-5121' };
  const B = { pn: 'I18N0000000002', devcode: 2341, devaddr: 1, sn: 'I18N-2341' };
  const call = <T = unknown>(action: string, params: Params) => s.call<T>(anna, action, params);

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    const db = s.ctx.db;
    const now = s.clock.now();
    const login = await s.login('owner_anna', 'Owner_2026');
    expect(login.err).toBe(0);
    anna = login.dat!;
    plant = await insertPlant(db, { owner_id: anna.uid, name: 'i18n roof', now, tz_offset: TZ });
    for (const d of [A, B]) {
      const dl = await insertDatalogger(db, { pn: d.pn, now, owner_id: anna.uid, project_id: plant, tz_offset: TZ });
      const dev = await insertDevice(db, { datalogger_id: dl, ...d, now, project_id: plant });
      const values: Record<string, number> =
        d === A
          ? { gd_l1_voltage: 230.5, sy_status: 1, pv_output_power: 3000, sy_energy_total: 10 }
          : { gd_mains_status: 1, sy_status: 4, gd_ac_input_voltage: 229.8 };
      await insertSamples(db, d === A ? DEVCODE_5121 : DEVCODE_2341, dev, [{ ts: now - 60_000, values }], TZ);
    }
    date = fmtTs(now - 60_000, TZ).slice(0, 10);
  });
  afterAll(async () => {
    await s?.stop();
  });

  const item = (last: Last, id: string) =>
    Object.values(last.pars)
      .flat()
      .find((x) => x.id === id)!;

  it('querySPDeviceLastData: German titles and enum labels with i18n=de_DE, English with en_US', async () => {
    const de = await call<Last>('querySPDeviceLastData', { ...A, i18n: 'de_DE' });
    expect(de.err).toBe(0);
    expect(item(de.dat!, 'gd_l1_voltage')).toMatchObject({ par: 'Netzspannung L1', val: '230.5', unit: 'V' });
    expect(item(de.dat!, 'sy_status')).toMatchObject({ par: 'Betriebszustand', val: 'Selbsttest' });

    const en = await call<Last>('querySPDeviceLastData', { ...A, i18n: 'en_US' });
    expect(en.err).toBe(0);
    expect(item(en.dat!, 'gd_l1_voltage')).toMatchObject({ par: 'Grid Voltage L1', val: '230.5', unit: 'V' });
    expect(item(en.dat!, 'sy_status')).toMatchObject({ par: 'Working State', val: 'Self Check' });
    // Same ids, groups and values; only texts differ.
    expect(Object.keys(de.dat!.pars)).toEqual(Object.keys(en.dat!.pars));
    expect(
      Object.values(de.dat!.pars)
        .flat()
        .map((x) => [x.id, x.unit]),
    ).toEqual(
      Object.values(en.dat!.pars)
        .flat()
        .map((x) => [x.id, x.unit]),
    );

    // No locale → the English answer, byte for byte.
    const none = await call<Last>('querySPDeviceLastData', A);
    expect(JSON.stringify(none.dat)).toBe(JSON.stringify(en.dat));

    // `lang` and other spellings work too.
    const fr = await call<Last>('querySPDeviceLastData', { ...A, lang: 'fr-FR' });
    expect(item(fr.dat!, 'gd_l1_voltage').par).toBe('Tension réseau L1');
    const zh = await call<Last>('querySPDeviceLastData', { ...A, i18n: 'zh_CN' });
    expect(item(zh.dat!, 'sy_status')).toMatchObject({ par: '工作状态', val: '自检' });
  });

  it('vendor devcode 2341: "Mains OK" / "Line Mode" labels and titles are translated', async () => {
    const de = await call<Last>('querySPDeviceLastData', { ...B, i18n: 'de_DE' });
    expect(de.err).toBe(0);
    expect(item(de.dat!, 'gd_mains_status')).toMatchObject({ par: 'Netzstatus', val: 'Netz OK' });
    expect(item(de.dat!, 'sy_status')).toMatchObject({ par: 'Betriebszustand', val: 'Netzbetrieb' });
    const en = await call<Last>('querySPDeviceLastData', { ...B, i18n: 'en_US' });
    expect(item(en.dat!, 'gd_mains_status')).toMatchObject({ par: 'Mains Status', val: 'Mains OK' });
    expect(item(en.dat!, 'sy_status')).toMatchObject({ par: 'Working State', val: 'Line Mode' });
    const ru = await call<Last>('querySPDeviceLastData', { ...B, i18n: 'ru_RU' });
    expect(item(ru.dat!, 'gd_mains_status')).toMatchObject({ par: 'Состояние сети', val: 'Сеть в норме' });
  });

  it('the other device screens follow the locale', async () => {
    const flat = await call<Array<{ title: string; val: string }>>('queryDeviceLastData', { sn: A.sn, i18n: 'de_DE' });
    expect(flat.dat![1]!.title).toBe('Zeitstempel');
    expect(flat.dat!.map((r) => r.title)).toContain('Netzspannung L1');
    const flatEn = await call<Array<{ title: string }>>('queryDeviceLastData', { sn: A.sn });
    expect(flatEn.dat![1]!.title).toBe('Timestamp');

    const pars = await call<{ parameter: Array<{ par: string; name: string }> }>('queryDeviceParsEs', {
      ...A,
      i18n: 'de_DE',
    });
    expect(pars.dat!.parameter.find((p) => p.par === 'gd_l1_voltage')?.name).toBe('Netzspannung L1');

    const charts = await call<Array<{ optional: string; name: string }>>('queryDeviceChartsFieldsEs', {
      ...A,
      i18n: 'it_IT',
    });
    expect(charts.dat!.find((c) => c.optional === 'gd_l1_voltage')?.name).toBe('Tensione di rete L1');

    const byType = await call<Array<{ optional: string; name: string }>>('queryPlantDeviceChartsFieldsByType', {
      plantid: plant,
      devcode: 5121,
      devtype: 512,
      i18n: 'nl_NL',
    });
    expect(byType.err).toBe(0);
    expect(byType.dat!.find((c) => c.optional === 'gd_l1_voltage')?.name).toBe('Netspanning L1');

    const paged = await call<{ title: Array<{ title: string }>; row: Array<{ field: string[] }> }>(
      'queryDeviceDataOneDayPaging',
      { ...A, date, page: 0, pagesize: 5, i18n: 'pl_PL' },
    );
    expect(paged.err).toBe(0);
    expect(paged.dat!.title[1]!.title).toBe('Znacznik czasu');
    expect(paged.dat!.title.map((t) => t.title)).toContain('Napięcie sieci L1');
    const day = await call<{ title: Array<{ title: string }> }>('queryDeviceDataOneDay', {
      ...A,
      date,
      i18n: 'tr_TR',
    });
    expect(day.dat!.title.map((t) => t.title)).toContain('Şebeke Gerilimi L1');

    const designated = await call<{ device: Array<Record<string, unknown>> }>('queryPlantDeviceDesignatedInformation', {
      plantid: plant,
      devtype: 512,
      parameter: 'sy_status',
      i18n: 'de_DE',
    });
    expect(designated.dat!.device[0]!.sy_status).toBe('Selbsttest');
  });
});
