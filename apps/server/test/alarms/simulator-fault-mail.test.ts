import { alarmText, getDefinition, type AlarmListDat, type AuthDat } from '@sunwatch/protocol';
import { buildFleet, forceFault, LiveFleet, MqttPublisher, reportableFaults, simClock, type DataloggerSpec } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { provisionFleet } from '../../src/demo/seed-telemetry.js';
import { waitFor } from '../factories/telemetry-ingest.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { TestSmtp } from '../notifications/smtp.js';

/**
 * Issue 11's named test scenario, end to end with nothing synthetic: a simulated datalogger
 * (apps/simulator) publishes its frames over real MQTT to the app's embedded broker; the test forces
 * a fault on its device (`forceFault`, the simulator's `--fault`), the alarm appears with its code
 * and its text in German and Chinese, the notifier and sender jobs of the running server mail both
 * subscribers through a real SMTP server in-process (smtp-server), and once the simulator stops
 * reporting the fault the alarm gets its end time (and the end is mailed).
 */
const PUBLIC_URL = 'https://portal.example';

describe.each(engines)('a simulator fault over MQTT → alarm → mail ($name)', (engine) => {
  const smtp = new TestSmtp();
  let s: TestServer;
  let fleet: LiveFleet;
  let spec: DataloggerSpec;
  let ben: AuthDat;

  beforeAll(async () => {
    await smtp.up();
    s = await startTestServer(engine, {
      config: {
        telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: true },
        notifications: {
          ...loadConfig({}).notifications,
          smtpUrl: smtp.url,
          publicUrl: PUBLIC_URL,
          alarmScanMs: 100,
          sendMs: 100,
          smtpTimeoutMs: 2000,
        },
      },
    });
    // One simulated datalogger with one device, on a plant of owner_ben (provisionFleet's default).
    const built = buildFleet({ count: 1, prefix: 'SWFLT' });
    built.dataloggers = built.dataloggers.map((d) => ({
      ...d,
      devices: d.devices.slice(0, 1),
      offlineRate: 0,
      warningRate: 0,
      faultRate: 0,
      collectInterval: 5,
      heartbeatInterval: 5,
    }));
    const provisioned = await provisionFleet(s, built);
    fleet = new LiveFleet(provisioned.dataloggers, {
      clock: simClock(),
      tickMs: 100,
      offlineSpells: false,
      publisherFor: (d) => new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: d.pn, token: d.token }),
    });
    // The running datalogger's own spec (the fleet keeps a copy): forceFault acts on this one.
    spec = fleet.loggers[0]!.spec;
    fleet.start();
    const r = await s.login('owner_ben', 'Owner_2026');
    expect(r.err).toBe(0);
    ben = r.dat as AuthDat;
    await waitFor(async () => {
      const row = await s.ctx.db.selectFrom('dataloggers').select('status').where('pn', '=', spec.pn).executeTakeFirst();
      return row?.status === 0 && s.ctx.services.telemetry.isConnected(spec.pn) !== false;
    }, 30_000);
  }, 60_000);

  afterAll(async () => {
    await fleet?.stop();
    await s?.stop();
    await smtp.down();
  }, 30_000);

  it('raises the alarm with its code and text in two languages, mails both subscribers, and ends it when the fault clears', async () => {
    const dev = spec.devices[0]!;
    const fault = reportableFaults(getDefinition(dev.devcode)!).find((f) => f.level === 2);
    expect(fault, `devcode ${dev.devcode} has a reportable fault`).toBeDefined();
    const plant = (
      await s.ctx.db.selectFrom('dataloggers').select('project_id').where('pn', '=', spec.pn).executeTakeFirstOrThrow()
    ).project_id!;
    // Two subscriptions of the plant's owner, one in German, one in Chinese (faults only).
    for (const [email, language] of [
      ['ben.de@example.com', 'de_DE'],
      ['ben.zh@example.com', 'zh_CN'],
    ] as const) {
      const add = await s.call(ben, 'addEmailPush', { email, pid: String(plant), level: '2', language });
      expect(add.err).toBe(0);
    }
    // Frames without a fault are arriving over MQTT: no alarm yet.
    const tuple = { pn: spec.pn, devcode: dev.devcode, devaddr: dev.devaddr, sn: dev.sn };
    await waitFor(async () => {
      const n = await s.ctx.db.selectFrom('devices').select('last_sample_at').where('sn', '=', dev.sn).executeTakeFirst();
      return n?.last_sample_at != null;
    }, 20_000);
    expect((await s.call<AlarmListDat>(ben, 'queryDeviceWarning', { ...tuple, i18n: 'en_US' })).dat!.total).toBe(0);

    // The simulator raises the fault: its next frame reports it.
    forceFault(spec, dev.sn, fault!.code);
    const alarm = await waitFor(
      () =>
        s.ctx.db
          .selectFrom('alarms as a')
          .innerJoin('devices as d', 'd.id', 'a.device_id')
          .select(['a.id', 'a.code', 'a.level', 'a.ended_at'])
          .where('d.sn', '=', dev.sn)
          .executeTakeFirst(),
      20_000,
    );
    expect(alarm).toMatchObject({ code: fault!.code, level: 2, ended_at: null });
    for (const locale of ['de_DE', 'zh_CN'] as const) {
      const r = await s.call<AlarmListDat>(ben, 'queryDeviceWarning', { ...tuple, i18n: locale });
      expect(r.err).toBe(0);
      expect(r.dat!.total).toBe(1);
      expect(r.dat!.warning[0]).toMatchObject({
        id: alarm.id,
        pn: spec.pn,
        sn: dev.sn,
        devcode: dev.devcode,
        code: fault!.code,
        level: 2,
        desc: alarmText(dev.devcode, fault!.code, locale),
        ets: '',
        pid: plant,
        usr: 'owner_ben',
      });
    }
    expect(alarmText(dev.devcode, fault!.code, 'de_DE')).not.toBe(alarmText(dev.devcode, fault!.code, 'zh_CN'));

    // A mail in each subscriber's language reaches the SMTP server, linking to the alarm.
    const de = await waitFor(async () => smtp.to('ben.de@example.com')[0], 20_000);
    expect(de.subject).toContain(alarmText(dev.devcode, fault!.code, 'de_DE'));
    expect(de.subject).toContain('[Störung]');
    expect(de.text).toContain(`${PUBLIC_URL}/generalNew/alarm?id=${alarm.id}`);
    expect(de.text).toContain(`Gerät: ${dev.devcode}-${dev.devaddr} (${spec.pn})`); // the device's alias (provisionFleet's) and PN
    const zh = await waitFor(async () => smtp.to('ben.zh@example.com')[0], 20_000);
    expect(zh.subject).toContain(alarmText(dev.devcode, fault!.code, 'zh_CN'));
    expect(zh.subject).toContain('[故障]');
    expect(zh.text).toContain(`${PUBLIC_URL}/generalNew/alarm?id=${alarm.id}`);

    // The fault clears in the simulator: the alarm gets its end time, the end is mailed once.
    forceFault(spec, dev.sn, null);
    const ended = await waitFor(
      async () => {
        const r = await s.call<AlarmListDat>(ben, 'queryDeviceWarning', { ...tuple, i18n: 'de_DE' });
        const w = r.dat?.warning.find((x) => x.id === alarm.id);
        return w && w.ets !== '' ? w : undefined;
      },
      20_000,
    );
    expect(ended.ets).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(ended.ets >= ended.gts).toBe(true);
    const row = await s.ctx.db.selectFrom('alarms').select(['started_at', 'ended_at']).where('id', '=', alarm.id).executeTakeFirstOrThrow();
    expect(Number(row.ended_at)).toBeGreaterThan(Number(row.started_at));
    const end = await waitFor(async () => smtp.to('ben.de@example.com')[1], 20_000);
    expect(end.subject).toContain(`Behoben: ${alarmText(dev.devcode, fault!.code, 'de_DE')}`);
    expect(end.text).toContain('Beendet:');
    // One alarm for the whole spell, no further fault mails.
    expect(await s.ctx.db.selectFrom('alarms').select('id').where('datalogger_id', '=', await dlId()).execute()).toHaveLength(1);
    expect(smtp.to('ben.de@example.com')).toHaveLength(2);
  }, 60_000);

  const dlId = async () =>
    Number((await s.ctx.db.selectFrom('dataloggers').select('id').where('pn', '=', spec.pn).executeTakeFirstOrThrow()).id);
});
