import {
  DEVICE_STATUS,
  type AuthDat,
  type StrategyCandidatesDat,
  type StrategyDeviceListDat,
  type StrategyListDat,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { engines, type TestServer } from '../harness.js';
import { repo } from '../distribution/helpers.js';
import { HOUR, insertFirmware, rolloutOf, startStrategyServer, TestEngine, TZ } from './strategy-helpers.js';

/**
 * Session 27 gaps of issue 13's strategies, on SQLite and PostgreSQL: the editor's device picker
 * (PN:SN, scoped in SQL), fleet-sized strategies by filter (resolved page by page at the effective
 * time in the creator's scope and the firmware's manufacturer, frozen, canary over the resolved
 * population) and pause reasons stored as codes, read in the caller's language.
 */

describe.each(engines)('upgrade strategies: device picker, by filter, pause codes ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  let fwLogger = '';
  let fwDevice = '';
  let maker = 0;
  let other = 0;
  const testEngine = new TestEngine(() => s);
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);

  const firmware = (vendor: number, code: string, type: number) => insertFirmware(s, { vendor, code, type, version: '4.0.0' });

  async function logger(pn: string, vendor: number, model: string, online = true): Promise<number> {
    const id = await repo(s).insertStock(pn, `alias ${pn}`, null, vendor, 'SW');
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ model, status: online ? DEVICE_STATUS.NORMAL : DEVICE_STATUS.OFFLINE })
      .where('pn', '=', pn)
      .execute();
    return id;
  }

  async function device(pn: string, sn: string, devcode: number, devaddr: number, model: string): Promise<void> {
    const dl = await s.ctx.db.selectFrom('dataloggers').select('id').where('pn', '=', pn).executeTakeFirstOrThrow();
    await s.ctx.db
      .insertInto('devices')
      .values({
        datalogger_id: Number(dl.id),
        pn,
        devcode,
        devaddr,
        sn,
        alias: `dev ${sn}`,
        devtype: 512,
        device_type: 2,
        model,
        brand: '',
        status: DEVICE_STATUS.NORMAL,
        firmware: 'CTL-1.0',
        load: 0,
        project_id: null,
        last_sample_at: null,
        created_at: s.ctx.now(),
      })
      .execute();
  }

  const rolloutWith = (page: number, pagesPerPass: number) =>
    rolloutOf(s, testEngine, { resolvePageSize: page, resolvePagesPerPass: pagesPerPass });

  const base = (over: Record<string, string | number> = {}): Record<string, string | number> => ({
    name: 'Fleet by filter',
    description: 'Datalogger firmware 4.0',
    firmware: fwLogger,
    type: 0,
    baudRate: 9600,
    timezone: TZ,
    startTime: '2026-06-15 13:00',
    endTime: '2026-06-20 12:00',
    method: 0,
    ...over,
  });

  const rowOf = async (usr: string, code: string, i18n?: string) => {
    const r = await call<StrategyListDat>(usr, 'queryUpgradeStrategies', {
      search: code,
      pagesize: 10,
      ...(i18n ? { i18n } : {}),
    });
    expect(r.err).toBe(0);
    return r.dat!.strategy.find((x) => x.code === code)!;
  };

  beforeAll(async () => {
    ({ s, sessions, maker, other } = await startStrategyServer(engine));
    fwLogger = await firmware(maker, '6c6c6c6c6c6c0001', 0);
    fwDevice = await firmware(maker, '6c6c6c6c6c6c0002', 2);
    // The app runs the rollout every 5 s under the `upgrade-strategies` lease; this file drives its
    // own passes (small pages), so it holds that lease throughout, as a second instance would.
    const jobs = new JobRunner(s.ctx.db, s.ctx.now, s.ctx.log);
    while (!(await jobs.acquire('upgrade-strategies', 1000 * HOUR))) s.clock.advance(5000);
    s.clock.offset = 0;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('device picker: device firmware lists PN:SN rows of the caller only, narrowed by devcode and search, server-paged', async () => {
    // Another manufacturer's datalogger with a device of the same devcode and model.
    await logger('OMPICK00000001', other, 'PICK-1');
    await device('OMPICK00000001', 'OMDEV0000001', 777, 1, 'CTL-X');
    // Two of the maker's own (stock: visible to the manufacturer, not to its distributors).
    await logger('SWPICK00000001', maker, 'PICK-1');
    await device('SWPICK00000001', 'SWDEV0000001', 777, 1, 'CTL-X');
    await device('SWPICK00000001', 'SWDEV0000002', 777, 2, 'CTL-X');
    await device('SWPICK00000001', 'SWDEV0000003', 888, 3, 'CTL-Y');

    const pick = async (usr: string, params: Record<string, string | number>) => {
      const r = await call<StrategyCandidatesDat>(usr, 'queryUpgradeStrategyCandidates', { pagesize: 50, ...params });
      expect(r.err).toBe(0);
      return r.dat!;
    };
    const mine = await pick('sunmaker', { type: 2, devcode: 777 });
    expect(mine.target).toBe(1);
    expect(mine.collector).toEqual([]);
    const keys = mine.device.map((d) => `${d.pn}:${d.sn}`);
    expect(keys).toEqual(expect.arrayContaining(['SWPICK00000001:SWDEV0000001', 'SWPICK00000001:SWDEV0000002']));
    expect(keys).not.toContain('SWPICK00000001:SWDEV0000003');
    expect(keys.some((k) => k.startsWith('OMPICK'))).toBe(false);
    expect(mine.device.find((d) => d.sn === 'SWDEV0000001')).toMatchObject({
      devcode: 777,
      devaddr: 1,
      model: 'CTL-X',
      firmware: 'CTL-1.0',
      alias: 'dev SWDEV0000001',
    });
    // Another account's devices never appear, whatever the search.
    expect((await pick('sunmaker', { type: 2, search: 'OMDEV' })).total).toBe(0);
    expect((await pick('dealer_north', { type: 2, search: 'SWPICK' })).total).toBe(0);
    const theirs = await pick('othermaker', { type: 2 });
    expect(theirs.device.map((d) => `${d.pn}:${d.sn}`)).toEqual(['OMPICK00000001:OMDEV0000001']);
    // Server paging: one row a page, the total of all.
    const p0 = await pick('sunmaker', { type: 2, search: 'SWDEV', pagesize: 1 });
    const p1 = await pick('sunmaker', { type: 2, search: 'SWDEV', pagesize: 1, page: 1 });
    expect([p0.total, p0.device.length, p1.device.length]).toEqual([3, 1, 1]);
    expect(p0.device[0]!.sn).not.toBe(p1.device[0]!.sn);
    // Datalogger firmware (or no type): dataloggers, as before.
    const loggers = await pick('sunmaker', { type: 0, search: 'PICK' });
    expect([loggers.target, loggers.collector.map((c) => c.pn), loggers.device]).toEqual([0, ['SWPICK00000001'], []]);
    // A device picked in the editor is accepted by addUpgradeStrategy.
    const add = await call<{ code: string }>(
      'sunmaker',
      'addUpgradeStrategy',
      base({
        name: 'Picked devices',
        firmware: fwDevice,
        type: 2,
        devices: 'SWPICK00000001:SWDEV0000001,SWPICK00000001:SWDEV0000002',
      }),
    );
    expect(add.err).toBe(0);
    expect((await rowOf('sunmaker', add.dat!.code)).deviceCount).toBe(2);
    expect(
      (
        await call(
          'sunmaker',
          'addUpgradeStrategy',
          base({ firmware: fwDevice, type: 2, devices: 'OMPICK00000001:OMDEV0000001' }),
        )
      ).err,
    ).toBe(257);
  });

  it("by filter: validated, resolved page by page at the effective time in the creator's scope, frozen, canary over the population, pause in French", async () => {
    // 25 of the maker's dataloggers of model FLT-1 (one offline), 3 of another model, 2 of another manufacturer's FLT-1.
    const pns = Array.from({ length: 25 }, (_, i) => `SWFLT${String(i + 1).padStart(9, '0')}`);
    for (const [i, pn] of pns.entries()) await logger(pn, maker, 'FLT-1', i !== 24);
    for (let i = 1; i <= 3; i++) await logger(`SWOTH${String(i).padStart(9, '0')}`, maker, 'FLT-2');
    for (let i = 1; i <= 2; i++) await logger(`OMFLT${String(i).padStart(9, '0')}`, other, 'FLT-1');

    // Validation: malformed JSON and unknown keys are 6; device firmware needs a devcode (7); no devices nor filter: 7.
    expect((await call('sunmaker', 'addUpgradeStrategy', base({ filter: '{model:' }))).err).toBe(6);
    expect(
      (await call('sunmaker', 'addUpgradeStrategy', base({ filter: JSON.stringify({ colour: 'red' }) }))).err,
    ).toBe(6);
    expect((await call('sunmaker', 'addUpgradeStrategy', base({ filter: JSON.stringify({ devcode: 1 }) }))).err).toBe(
      6,
    );
    expect(
      (await call('sunmaker', 'addUpgradeStrategy', base({ firmware: fwDevice, type: 2, filter: '{}' }))).err,
    ).toBe(7);
    expect((await call('sunmaker', 'addUpgradeStrategy', base())).err).toBe(7);

    // The picker's total previews the population.
    const preview = await call<StrategyCandidatesDat>('sunmaker', 'queryUpgradeStrategyCandidates', {
      type: 0,
      model: 'FLT-1',
      pagesize: 1,
    });
    expect(preview.dat!.total).toBe(25);

    const add = await call<{ code: string }>(
      'sunmaker',
      'addUpgradeStrategy',
      base({ filter: JSON.stringify({ model: 'FLT-1' }), canaryPercent: 20, failureThresholdPercent: 20 }),
    );
    expect(add.err).toBe(0);
    const code = add.dat!.code;
    const id = Number(
      (await s.ctx.db.selectFrom('upgrade_strategies').select('id').where('code', '=', code).executeTakeFirstOrThrow())
        .id,
    );
    const rows = () =>
      s.ctx.db.selectFrom('upgrade_strategy_devices').selectAll().where('strategy_id', '=', id).orderBy('id').execute();
    const tasks = () =>
      s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('strategy_id', '=', id).orderBy('id').execute();
    expect(await rowOf('sunmaker', code)).toMatchObject({
      filter: { model: 'FLT-1' },
      resolved: false,
      deviceCount: 0,
    });

    // Pages of 4, two pages a pass: 8 targets a pass, nothing starts before the population is whole.
    const rollout = rolloutWith(4, 2);
    await rollout.runOnce();
    expect(await rows()).toHaveLength(0); // before the window: not resolved
    s.clock.advance(HOUR);
    try {
      await rollout.runOnce();
      expect(await rows()).toHaveLength(8);
      expect(await tasks()).toHaveLength(0);
      await rollout.runOnce();
      await rollout.runOnce();
      expect(await rows()).toHaveLength(24);
      expect((await rowOf('sunmaker', code)).resolved).toBe(false);
      // A datalogger matching the filter added while resolving, ahead of the cursor's key, is still taken.
      await logger('SWFLT999999999', maker, 'FLT-1');
      await rollout.runOnce();
      const all = await rows();
      expect(all.map((r) => r.pn).sort()).toEqual([...pns, 'SWFLT999999999'].sort());
      const r0 = await rowOf('sunmaker', code);
      expect(r0).toMatchObject({ resolved: true, deviceCount: 26, stage: 0 });
      // The canary: 20 % of 26 = 5, by rank; the rest stage 1.
      const canary = all.filter((r) => r.stage === 0);
      expect(canary).toHaveLength(5);
      const ranks = all.map((r) => r.rank).sort((a, b) => a - b);
      expect(Math.max(...canary.map((r) => r.rank))).toBe(ranks[4]);
      // Frozen: a datalogger matching later is not added.
      await logger('SWFLT000000000', maker, 'FLT-1');
      // The pass that resolved started the canary (an offline datalogger waits); another pass adds nothing.
      await rollout.runOnce();
      expect((await rows()).length).toBe(26);
      const started = await tasks();
      expect(started.map((t) => t.pn).sort()).toEqual(
        canary
          .filter((r) => r.pn !== pns[24])
          .map((r) => r.pn)
          .sort(),
      );
      const finish = async (keys: string[], status: number) =>
        s.ctx.db
          .updateTable('upgrade_tasks')
          .set({ status, phase: 'done', ended_at: s.ctx.now() })
          .where('key', 'in', keys)
          .execute();
      // Two of the canary fail, the others succeed: the stage pauses (2 of 5 = 40 % > 20 %).
      const online = canary.filter((r) => r.pn !== pns[24]);
      if (online.length < canary.length)
        await s.ctx.db
          .updateTable('dataloggers')
          .set({ status: DEVICE_STATUS.NORMAL })
          .where('pn', '=', pns[24]!)
          .execute();
      await rollout.runOnce();
      const canaryTasks = await tasks();
      expect(canaryTasks).toHaveLength(5);
      await finish(
        canaryTasks.slice(0, 2).map((t) => t.key),
        2,
      );
      await finish(
        canaryTasks.slice(2).map((t) => t.key),
        3,
      );
      await rollout.runOnce();
      const en = await rowOf('sunmaker', code);
      expect(en).toMatchObject({
        paused: true,
        stage: 0,
        pauseCode: 'stageFailed',
        pauseReason: 'Canary stage: 2 of 5 upgrades failed (40 % > 20 %)',
      });
      const fr = await rowOf('sunmaker', code, 'fr_FR');
      expect(fr.pauseReason).toBe('Étape canari : 2 mises à jour sur 5 ont échoué (40 % > 20 %)');
      // The stored reason is a code with parameters, never prose.
      const stored = await s.ctx.db
        .selectFrom('upgrade_strategies')
        .select('pause_reason')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(stored.pause_reason.replace(/^pause:stageFailed\|/, ''))).toEqual({
        stage: 0,
        failed: 2,
        finished: 5,
        pct: 40,
        threshold: 20,
      });
      await rollout.runOnce();
      expect(await tasks()).toHaveLength(5);

      // Resume: the other 21 start; the per-device results are paged on the server.
      expect((await call('sunmaker', 'resumeUpgradeStrategy', { code })).err).toBe(0);
      await s.ctx.db
        .updateTable('dataloggers')
        .set({ status: DEVICE_STATUS.NORMAL })
        .where('pn', 'in', [...pns, 'SWFLT999999999'])
        .execute();
      await rollout.runOnce();
      expect(await tasks()).toHaveLength(26);
      const page = await call<StrategyDeviceListDat>('sunmaker', 'queryUpgradeStrategyDevices', {
        code,
        pagesize: 10,
        page: 2,
      });
      expect([page.err, page.dat!.total, page.dat!.device.length]).toEqual([0, 26, 6]);
      const failed = await call<StrategyDeviceListDat>('sunmaker', 'queryUpgradeStrategyDevices', { code, result: 3 });
      expect(failed.dat!.device.map((d) => d.stage)).toEqual([0, 0]);
      // Never another manufacturer's, never another model, never the one added after the freeze.
      const pnsOf = new Set((await rows()).map((r) => r.pn));
      expect([...pnsOf].some((p) => p.startsWith('OMFLT') || p.startsWith('SWOTH') || p === 'SWFLT000000000')).toBe(
        false,
      );
      // The job audited the resolution.
      const audit = await s.ctx.db
        .selectFrom('audit_log')
        .select(['after'])
        .where('action', '=', 'job:upgrade-strategies')
        .where('entity', '=', 'upgrade_strategy')
        .where('entity_id', '=', String(id))
        .execute();
      expect(audit.some((a) => String(a.after).includes('"resolved_at"'))).toBe(true);
    } finally {
      s.clock.offset = 0;
    }
  });

  it("by filter in a distributor's scope, for devices: only the devices of its dataloggers with the devcode; a refused image pauses in the reader's language", async () => {
    const north = await call<StrategyCandidatesDat>('dealer_north', 'queryUpgradeStrategyCandidates', {
      type: 2,
      pagesize: 50,
    });
    expect(north.err).toBe(0);
    const devcode = north.dat!.device[0]?.devcode;
    expect(devcode).toBeDefined();
    const expected = north
      .dat!.device.filter((d) => d.devcode === devcode)
      .map((d) => `${d.pn}:${d.sn}`)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    // The manufacturer's own stock has a device of that devcode too: outside the distributor's scope.
    await device('SWPICK00000001', 'SWDEVNORTHX1', devcode!, 9, 'CTL-X');
    const add = await call<{ code: string }>(
      'dealer_north',
      'addUpgradeStrategy',
      base({
        name: 'North devices',
        firmware: fwDevice,
        type: 2,
        filter: JSON.stringify({ devcode }),
        startTime: '2026-06-15 12:00',
      }),
    );
    expect(add.err).toBe(0);
    const id = Number(
      (
        await s.ctx.db
          .selectFrom('upgrade_strategies')
          .select('id')
          .where('code', '=', add.dat!.code)
          .executeTakeFirstOrThrow()
      ).id,
    );
    testEngine.refuse = true;
    try {
      const rollout = rolloutWith(2, 100);
      await rollout.runOnce();
      const rows = await s.ctx.db
        .selectFrom('upgrade_strategy_devices')
        .selectAll()
        .where('strategy_id', '=', id)
        .execute();
      expect(rows.map((r) => `${r.pn}:${r.sn}`).sort()).toEqual(expected);
      expect(rows.every((r) => r.target === 1 && r.devcode === devcode)).toBe(true);
      expect(rows.some((r) => r.sn === 'SWDEVNORTHX1')).toBe(false);
      await s.ctx.db
        .updateTable('dataloggers')
        .set({ status: DEVICE_STATUS.NORMAL })
        .where(
          'pn',
          'in',
          rows.map((r) => r.pn),
        )
        .execute();
      await rollout.runOnce();
      const de = await rowOf('dealer_north', add.dat!.code, 'de_DE');
      expect(de).toMatchObject({ paused: true, pauseCode: 'firmwareRefused' });
      expect(de.pauseReason).toContain('Die Firmware wurde abgelehnt (Fehler 352');
    } finally {
      testEngine.refuse = false;
    }
  });

  it('legacy pause prose is shown as stored', async () => {
    const add = await call<{ code: string }>(
      'sunmaker',
      'addUpgradeStrategy',
      base({ name: 'Legacy', devices: 'SWPICK00000001' }),
    );
    expect(add.err).toBe(0);
    await s.ctx.db
      .updateTable('upgrade_strategies')
      .set({ paused: 1, pause_reason: 'canary: 1 of 2 failed (50 % > 20 %)' })
      .where('code', '=', add.dat!.code)
      .execute();
    expect(await rowOf('sunmaker', add.dat!.code, 'fr_FR')).toMatchObject({
      pauseReason: 'canary: 1 of 2 failed (50 % > 20 %)',
      pauseCode: '',
    });
  });
});
