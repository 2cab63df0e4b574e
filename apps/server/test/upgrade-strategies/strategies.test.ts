import { DEVICE_STATUS, STRATEGY_STATUS, type AuthDat, type StrategyDeviceListDat, type StrategyListDat, type SuggestedStrategy } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StrategyRollout } from '../../src/modules/upgrade-strategies/strategy-rollout.js';
import { engines, FIXED_NOW, type TestServer } from '../harness.js';
import { idOf, repo } from '../distribution/helpers.js';
import { HOUR, insertFirmware, rolloutOf, startStrategyServer, TestEngine, TZ } from './strategy-helpers.js';

/**
 * Upgrade strategies (issue 13) on SQLite and PostgreSQL: every rule and error code of the
 * actions, scoping across two manufacturers and between distributors, and the rollout state
 * machine (window, canary, auto-pause, resume, cancel, expiry, suggested) driven through a test
 * implementation of the engine port that writes real `upgrade_tasks` rows (the contract's
 * allowance for unit-level state-machine tests; the real engine end to end is not merged yet).
 */

/** FIXED_NOW (2026-06-15 04:00 UTC) in UTC+8. */
const NOW_LOCAL = '2026-06-15 12:00';

describe.each(engines)('upgrade strategies ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  let fwSun = '';
  let fwSunDevice = '';
  let fwOther = '';
  const testEngine = new TestEngine(() => s);
  let rollout: StrategyRollout;
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);

  const firmware = (vendor: number, code: string, type: number) => insertFirmware(s, { vendor, code, type, version: '3.0.0' });

  const base = (over: Record<string, string | number> = {}): Record<string, string | number> => ({
    name: 'Spring rollout',
    description: 'Datalogger firmware 3.0',
    firmware: fwSun,
    type: 0,
    baudRate: 9600,
    timezone: TZ,
    startTime: '2026-06-15 13:00',
    endTime: '2026-06-20 12:00',
    method: 0,
    devices: 'SWNORTH0000101,SWNORTH0000102',
    ...over,
  });

  const list = async (usr: string, params: Record<string, string | number> = {}) => {
    const r = await call<StrategyListDat>(usr, 'queryUpgradeStrategies', { pagesize: 100, ...params });
    expect(r.err).toBe(0);
    return r.dat!;
  };
  const row = async (usr: string, code: string) => (await list(usr, { search: code })).strategy.find((x) => x.code === code);

  beforeAll(async () => {
    const started = await startStrategyServer(engine);
    ({ s, sessions } = started);
    const { maker, other } = started;
    await repo(s).insertStock('OMAKER00000001', '', null, other, 'OM');
    fwSun = await firmware(maker, '5a5a5a5a5a5a0001', 0);
    fwSunDevice = await firmware(maker, '5a5a5a5a5a5a0002', 2);
    fwOther = await firmware(other, '0b0b0b0b0b0b0001', 0);
    rollout = rolloutOf(s, testEngine);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('addUpgradeStrategy: err 7 names each missing field, 6 each malformed one (spec §5)', async () => {
    for (const k of ['name', 'description', 'firmware', 'type', 'baudRate', 'timezone', 'startTime', 'endTime', 'method', 'devices']) {
      const p = base();
      delete p[k];
      const r = await call('dealer_north', 'addUpgradeStrategy', p);
      expect([k, r.err, r.desc]).toEqual([k, 7, `ERR_MISSING_PARAMETER(${k})`]);
      // An empty value is dropped on the wire: missing, too.
      expect((await call('dealer_north', 'addUpgradeStrategy', { ...p, [k]: '' })).err).toBe(7);
    }
    const bad: Array<[string, string | number]> = [
      ['name', 'x'],
      ['name', 'n'.repeat(65)],
      ['baudRate', 1234],
      ['type', 9],
      ['timezone', 1000],
      ['method', 2],
      ['startTime', '2026-13-01 00:00'],
      ['endTime', 'tomorrow'],
      ['endTime', '2026-06-15 12:30'], // before the start
      ['endTime', '2026-06-15 11:00'], // already past
      ['devices', 'SWNORTH0000101:SW5121K0000101'], // a device behind it for a datalogger firmware
      ['canaryPercent', 101],
      ['failureThresholdPercent', -1],
      ['firmware', 'nothex'],
    ];
    for (const [k, v] of bad) {
      const r = await call('dealer_north', 'addUpgradeStrategy', base({ [k]: v }));
      expect([k, v, r.err]).toEqual([k, v, 6]);
    }
    // The strategy's type must be its firmware's.
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ type: 1 }))).err).toBe(6);
    // Names of 2 and 64 characters are fine.
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ name: 'ab' }))).err).toBe(0);
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ name: 'n'.repeat(64) }))).err).toBe(0);
    // Nothing half-written by the refused calls: exactly the two accepted strategies.
    const n = await s.ctx.db.selectFrom('upgrade_strategies').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(2);
  });

  it('scoping: devices and firmware of the caller only (257, 258, 352, 11); another tenant\'s strategy answers 12', async () => {
    // Another manufacturer's firmware and datalogger, a datalogger of the maker's own stock, a missing one.
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ firmware: fwOther }))).err).toBe(352);
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ firmware: '0000000000000000' }))).err).toBe(352);
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ devices: 'OMAKER00000001' }))).err).toBe(257);
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ devices: 'SWMAKER0000001' }))).err).toBe(257);
    expect((await call('dealer_south', 'addUpgradeStrategy', base())).err).toBe(257);
    expect((await call('othermaker', 'addUpgradeStrategy', base({ devices: 'OMAKER00000001' }))).err).toBe(352);
    // Device firmware: a device behind the datalogger, 258 for one that is not there.
    expect((await call('dealer_north', 'addUpgradeStrategy', base({ firmware: fwSunDevice, type: 2, devices: 'SWNORTH0000101:NOSUCHSN' }))).err).toBe(258);
    const dev = await call<{ code: string }>('dealer_north', 'addUpgradeStrategy', base({ firmware: fwSunDevice, type: 2, devices: 'SWNORTH0000101:SW5121K0000101' }));
    expect(dev.err).toBe(0);
    // Owners, viewers and group accounts never manage strategies.
    for (const u of ['owner_anna', 'viewer_cara', 'group_east']) expect((await call(u, 'addUpgradeStrategy', base())).err).toBe(11);
    expect((await call('owner_anna', 'queryUpgradeStrategies')).err).toBe(11);
    // A sub-administrator without system_settings: 11.
    expect((await call('north_ops', 'queryUpgradeStrategies')).err).toBe(11);

    // The editor's datalogger picker lists the caller's dataloggers only.
    const picks = async (u: string, search: string) =>
      (await call<{ collector: { pn: string }[] }>(u, 'queryUpgradeStrategyCandidates', { search, pagesize: 50 })).dat!.collector.map((c) => c.pn);
    expect(await picks('dealer_north', 'SWNORTH00001')).toEqual(expect.arrayContaining(['SWNORTH0000101', 'SWNORTH0000105']));
    expect(await picks('dealer_north', 'MAKER')).toEqual([]);
    expect(await picks('sunmaker', 'MAKER')).toEqual(['SWMAKER0000001', 'SWMAKER0000002']);
    expect(await picks('othermaker', '')).toEqual(['OMAKER00000001']);
    expect((await call('owner_anna', 'queryUpgradeStrategyCandidates')).err).toBe(11);

    const mine = await call<{ code: string }>('sunmaker', 'addUpgradeStrategy', base({ name: 'Maker stock', devices: 'SWMAKER0000001' }));
    expect(mine.err).toBe(0);
    const theirs = await call<{ code: string }>('othermaker', 'addUpgradeStrategy', base({ firmware: fwOther, devices: 'OMAKER00000001' }));
    expect(theirs.err).toBe(0);
    const code = theirs.dat!.code;
    // The other manufacturer's strategy is invisible: every action answers 12, lists leave it out.
    for (const u of ['sunmaker', 'dealer_north']) {
      expect((await call(u, 'cancelUpgradeStrategy', { code })).err).toBe(12);
      expect((await call(u, 'editUpgradeStrategy', { code, name: 'mine now' })).err).toBe(12);
      expect((await call(u, 'resumeUpgradeStrategy', { code })).err).toBe(12);
      expect((await call(u, 'queryUpgradeStrategyDevices', { code })).err).toBe(12);
      expect((await list(u)).strategy.map((x) => x.code)).not.toContain(code);
    }
    expect((await call('othermaker', 'cancelUpgradeStrategy', { code: 'ST20260615-9999' })).err).toBe(12);
    // dealer_south sees none of dealer_north's; the manufacturer sees its distributors'; the operator all.
    expect((await list('dealer_south')).total).toBe(0);
    const north = (await list('dealer_north')).strategy.map((x) => x.code);
    expect(north).not.toContain(mine.dat!.code);
    expect(north).toContain(dev.dat!.code);
    const maker = (await list('sunmaker')).strategy.map((x) => x.code);
    expect(maker).toEqual(expect.arrayContaining([...north, mine.dat!.code]));
    expect(maker).not.toContain(code);
    expect((await list('othermaker')).strategy.map((x) => x.code)).toEqual([code]);
    expect((await list('operator')).strategy.map((x) => x.code)).toEqual(expect.arrayContaining([...maker, code]));
    await s.ctx.db.deleteFrom('upgrade_strategies').where('code', '=', code).execute();
  });

  it('search: `_` and `%` are literal characters, case-insensitively, on both engines', async () => {
    const lit = await call<{ code: string }>('dealer_north', 'addUpgradeStrategy', base({ name: 'Wave_50% North' }));
    const look = await call<{ code: string }>('dealer_north', 'addUpgradeStrategy', base({ name: 'WaveX50Y North' }));
    expect([lit.err, look.err]).toEqual([0, 0]);
    const names = async (search: string) => (await list('dealer_north', { search })).strategy.map((x) => x.name).sort();
    // The wildcards of LIKE match themselves only: the look-alike is not found.
    expect(await names('_50%')).toEqual(['Wave_50% North']);
    expect(await names('wave_50')).toEqual(['Wave_50% North']);
    expect(await names('50% n')).toEqual(['Wave_50% North']);
    expect(await names('x50y')).toEqual(['WaveX50Y North']);
    expect(await names('%')).toEqual(['Wave_50% North']);
    // The device list and the datalogger picker escape the same way.
    const devs = await call<StrategyDeviceListDat>('dealer_north', 'queryUpgradeStrategyDevices', { code: lit.dat!.code, search: '_' });
    expect([devs.err, devs.dat!.total]).toEqual([0, 0]);
    const picks = await call<{ collector: { pn: string }[] }>('dealer_north', 'queryUpgradeStrategyCandidates', { search: 'north_000' });
    expect([picks.err, picks.dat!.collector.length]).toEqual([0, 0]);
    expect((await call<{ collector: { pn: string }[] }>('dealer_north', 'queryUpgradeStrategyCandidates', { search: 'north000' })).dat!.collector.length).toBeGreaterThan(0);
    // Leave nothing behind for the status lists of the next cases.
    const codes = [lit.dat!.code, look.dat!.code];
    const ids = (await s.ctx.db.selectFrom('upgrade_strategies').select('id').where('code', 'in', codes).execute()).map((r) => r.id);
    await s.ctx.db.deleteFrom('upgrade_strategy_devices').where('strategy_id', 'in', ids).execute();
    await s.ctx.db.deleteFrom('upgrade_strategies').where('id', 'in', ids).execute();
  });

  it('list row, edit only before the start (audited), cancel is final, statuses by window', async () => {
    const add = await call<{ code: string }>('dealer_north', 'addUpgradeStrategy', base({ name: 'Edit me', reminder: 'Please keep it powered', canaryPercent: 50 }));
    expect(add.err).toBe(0);
    const code = add.dat!.code;
    expect(code).toMatch(/^ST20260615-\d{4}$/);
    expect(await row('dealer_north', code)).toMatchObject({
      name: 'Edit me',
      firmware: { code: fwSun, name: 'fw-0001', version: '3.0.0' },
      type: 0,
      baudRate: 9600,
      method: 0,
      timezone: TZ,
      startTime: '2026-06-15 13:00:00',
      endTime: '2026-06-20 12:00:00',
      startsAt: FIXED_NOW + HOUR,
      status: STRATEGY_STATUS.notStarted,
      deviceCount: 2,
      upgraded: 0,
      stage: 0,
      canaryPercent: 50,
      paused: false,
      reminder: 'Please keep it powered',
    });
    expect((await call('dealer_north', 'editUpgradeStrategy', { code, name: 'Edited', devices: 'SWNORTH0000101,SWNORTH0000102,SWNORTH0000103' })).err).toBe(0);
    expect(await row('dealer_north', code)).toMatchObject({ name: 'Edited', deviceCount: 3, description: 'Datalogger firmware 3.0' });
    expect((await call('dealer_north', 'editUpgradeStrategy', { code, devices: 'SWMAKER0000001' })).err).toBe(257);
    expect((await call('dealer_north', 'editUpgradeStrategy', { code, name: 'x' })).err).toBe(6);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'upgrade_strategy')
      .where('entity_id', '=', String((await s.ctx.db.selectFrom('upgrade_strategies').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['addUpgradeStrategy', 'editUpgradeStrategy']);
    expect(JSON.parse(audit[1]!.before!)).toEqual({ name: 'Edit me' });
    expect(JSON.parse(audit[1]!.after!)).toEqual({ name: 'Edited', devices: 3 });

    // Status filter; the start passes → in effect, no more edits.
    expect((await list('dealer_north', { status: 0 })).strategy.map((x) => x.code)).toContain(code);
    s.clock.advance(HOUR);
    try {
      expect((await row('dealer_north', code))!.status).toBe(STRATEGY_STATUS.inEffect);
      expect((await list('dealer_north', { status: 1 })).strategy.map((x) => x.code)).toContain(code);
      expect((await list('dealer_north', { status: 0 })).strategy.map((x) => x.code)).not.toContain(code);
      expect((await call('dealer_north', 'editUpgradeStrategy', { code, name: 'Too late' })).err).toBe(1);
      expect((await call('dealer_north', 'resumeUpgradeStrategy', { code })).err).toBe(14);
      expect((await call('dealer_north', 'cancelUpgradeStrategy', { code })).err).toBe(0);
      expect((await row('dealer_north', code))!.status).toBe(STRATEGY_STATUS.cancelled);
      expect((await call('dealer_north', 'cancelUpgradeStrategy', { code })).err).toBe(14);
      expect((await call('dealer_north', 'editUpgradeStrategy', { code, name: 'Again' })).err).toBe(1);
      expect((await call('dealer_north', 'resumeUpgradeStrategy', { code })).err).toBe(1);
      expect((await list('dealer_north', { status: 3 })).strategy.map((x) => x.code)).toEqual([code]);
      // Past the expiry: expired, and cancelling it is refused.
      s.clock.advance(6 * 24 * HOUR);
      const other = (await list('dealer_north', { status: 2 })).strategy;
      expect(other.length).toBeGreaterThan(0);
      expect((await call('dealer_north', 'cancelUpgradeStrategy', { code: other[0]!.code })).err).toBe(1);
    } finally {
      s.clock.offset = 0;
    }
  });

  it('rollout: nothing before the window; a 10 % canary of 20 first; the canary failing pauses; resume completes; expiry stops', async () => {
    const maker = await idOf(s, 'sunmaker');
    const pns = Array.from({ length: 20 }, (_, i) => `SWFLEET${String(i + 1).padStart(7, '0')}`);
    for (const pn of pns) await repo(s).insertStock(pn, '', null, maker, 'SW');
    await s.ctx.db.updateTable('dataloggers').set({ status: DEVICE_STATUS.NORMAL }).where('pn', 'in', pns).execute();
    const add = await call<{ code: string }>('sunmaker', 'addUpgradeStrategy', base({ name: 'Fleet', devices: pns.join(','), canaryPercent: 10, failureThresholdPercent: 20 }));
    expect(add.err).toBe(0);
    const code = add.dat!.code;
    const id = Number((await s.ctx.db.selectFrom('upgrade_strategies').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
    const tasks = () => s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('strategy_id', '=', id).orderBy('id').execute();
    const finish = async (keys: string[], status: number) =>
      s.ctx.db.updateTable('upgrade_tasks').set({ status, phase: 'done', progress: status === 3 ? 1000 : 400, ended_at: s.ctx.now() }).where('key', 'in', keys).execute();

    // Before the window: nothing starts.
    await rollout.runOnce();
    expect(await tasks()).toHaveLength(0);
    s.clock.advance(HOUR);
    try {
      // The canary: 2 of 20, one offline datalogger is skipped until it is back.
      await rollout.runOnce();
      const canary = await tasks();
      expect(canary).toHaveLength(2);
      expect(testEngine.starts.at(-1)).toMatchObject({ strategyId: id, queueIfOffline: false, fwType: 0, baudRate: 9600 });
      await rollout.runOnce();
      expect(await tasks()).toHaveLength(2); // the next stage waits for the canary
      await finish([canary[0]!.key], 2); // failed
      await finish([canary[1]!.key], 3); // succeeded
      await rollout.runOnce();
      let r = (await row('sunmaker', code))!;
      expect(r).toMatchObject({ paused: true, stage: 0, upgraded: 2, success: 1, failed: 1 });
      expect(r).toMatchObject({ pauseCode: 'stageFailed', pauseReason: 'Canary stage: 1 of 2 upgrades failed (50 % > 20 %)' });
      await rollout.runOnce();
      expect(await tasks()).toHaveLength(2); // paused: nothing new starts
      const devs = await call<StrategyDeviceListDat>('sunmaker', 'queryUpgradeStrategyDevices', { code, result: 3 });
      expect(devs.dat!.device).toEqual([expect.objectContaining({ pn: canary[0]!.pn, stage: 0, result: 3, key: canary[0]!.key, progress: 400 })]);

      // Resume: the rest (18), except one offline datalogger, which starts once it is back.
      const offline = pns.find((p) => !canary.some((t) => t.pn === p))!;
      testEngine.offline.add(offline);
      expect((await call('sunmaker', 'resumeUpgradeStrategy', { code })).err).toBe(0);
      expect((await call('sunmaker', 'resumeUpgradeStrategy', { code })).err).toBe(14);
      await rollout.runOnce();
      expect(await tasks()).toHaveLength(19);
      testEngine.offline.delete(offline);
      await s.ctx.db.updateTable('dataloggers').set({ status: DEVICE_STATUS.OFFLINE }).where('pn', '=', offline).execute();
      await rollout.runOnce();
      expect(await tasks()).toHaveLength(19); // its datalogger is offline: not tried
      await s.ctx.db.updateTable('dataloggers').set({ status: DEVICE_STATUS.NORMAL }).where('pn', '=', offline).execute();
      await rollout.runOnce();
      const all = await tasks();
      expect(all).toHaveLength(20);
      await finish(all.slice(2).map((t) => t.key), 3);
      await rollout.runOnce();
      r = (await row('sunmaker', code))!;
      expect(r).toMatchObject({ paused: false, stage: 1, deviceCount: 20, upgraded: 20, success: 19, failed: 1 });
      // The job's writes are audited: 20 starts, 20 outcomes, the pause (the resume is the action's).
      const jobAudit = await s.ctx.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('action', '=', 'job:upgrade-strategies')
        .executeTakeFirstOrThrow();
      expect(Number(jobAudit.n)).toBe(20 + 20 + 1);
    } finally {
      s.clock.offset = 0;
    }
  });

  it('rollout: cancel lets running upgrades finish and starts nothing new; past the expiry nothing starts; a refused image pauses', async () => {
    const maker = await idOf(s, 'sunmaker');
    const pns = Array.from({ length: 4 }, (_, i) => `SWCANCL${String(i + 1).padStart(7, '0')}`);
    for (const pn of pns) await repo(s).insertStock(pn, '', null, maker, 'SW');
    await s.ctx.db.updateTable('dataloggers').set({ status: DEVICE_STATUS.NORMAL }).where('pn', 'in', pns).execute();
    const mk = async (name: string, devices: string[], over: Record<string, string | number> = {}) => {
      const r = await call<{ code: string }>('sunmaker', 'addUpgradeStrategy', base({ name, devices: devices.join(','), startTime: NOW_LOCAL, ...over }));
      expect(r.err).toBe(0);
      const id = Number((await s.ctx.db.selectFrom('upgrade_strategies').select('id').where('code', '=', r.dat!.code).executeTakeFirstOrThrow()).id);
      return { code: r.dat!.code, id };
    };
    const tasksOf = (id: number) => s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('strategy_id', '=', id).execute();

    // No canary: every device at once; cancel; the running task still reports its result.
    const a = await mk('Cancel me', pns.slice(0, 2), { canaryPercent: 0 });
    await rollout.runOnce();
    const running = await tasksOf(a.id);
    expect(running).toHaveLength(2);
    expect((await call('sunmaker', 'cancelUpgradeStrategy', { code: a.code })).err).toBe(0);
    await s.ctx.db.updateTable('upgrade_tasks').set({ status: 3, ended_at: s.ctx.now() }).where('strategy_id', '=', a.id).execute();
    await rollout.runOnce();
    expect(await row('sunmaker', a.code)).toMatchObject({ status: STRATEGY_STATUS.cancelled, success: 2 });

    // Cancelled before anything started: nothing ever starts.
    const b = await mk('Cancelled early', pns.slice(2, 3));
    expect((await call('sunmaker', 'cancelUpgradeStrategy', { code: b.code })).err).toBe(0);
    await rollout.runOnce();
    expect(await tasksOf(b.id)).toHaveLength(0);

    // Expired: the window is over before the datalogger came online.
    await s.ctx.db.updateTable('dataloggers').set({ status: DEVICE_STATUS.OFFLINE }).where('pn', '=', pns[3]!).execute();
    const c = await mk('Short', pns.slice(3, 4), { endTime: '2026-06-15 13:00' });
    await rollout.runOnce();
    s.clock.advance(2 * HOUR);
    try {
      await s.ctx.db.updateTable('dataloggers').set({ status: DEVICE_STATUS.NORMAL }).where('pn', '=', pns[3]!).execute();
      await rollout.runOnce();
      expect(await tasksOf(c.id)).toHaveLength(0);
      expect((await row('sunmaker', c.code))!.status).toBe(STRATEGY_STATUS.expired);
    } finally {
      s.clock.offset = 0;
    }

    // The engine refuses the image (unsigned / mis-signed, 352): the rollout pauses, saying why.
    testEngine.refuse = true;
    try {
      const d = await mk('Unsigned', pns.slice(3, 4));
      await rollout.runOnce();
      expect(await row('sunmaker', d.code)).toMatchObject({ paused: true, pauseCode: 'firmwareRefused', upgraded: 0 });
    } finally {
      testEngine.refuse = false;
    }
  });

  it('suggested: the job starts nothing; the device screen learns the strategy and its reminder; an owner\'s start is picked up', async () => {
    await s.ctx.db.updateTable('dataloggers').set({ status: DEVICE_STATUS.NORMAL }).where('pn', '=', 'SWNORTH0000104').execute();
    const r = await call<{ code: string }>(
      'dealer_north',
      'addUpgradeStrategy',
      base({ name: 'Suggested', method: 1, startTime: NOW_LOCAL, devices: 'SWNORTH0000104', reminder: 'New MPPT tracking' }),
    );
    expect(r.err).toBe(0);
    const code = r.dat!.code;
    const id = Number((await s.ctx.db.selectFrom('upgrade_strategies').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
    await rollout.runOnce();
    expect(await s.ctx.db.selectFrom('upgrade_tasks').select('id').where('strategy_id', '=', id).execute()).toHaveLength(0);
    const offer = await call<SuggestedStrategy[]>('dealer_north', 'queryDeviceSuggestedStrategies', { pn: 'SWNORTH0000104' });
    expect(offer.err).toBe(0);
    expect(offer.dat).toEqual([expect.objectContaining({ code, name: 'Suggested', reminder: 'New MPPT tracking', result: 0, firmware: expect.objectContaining({ code: fwSun }) })]);
    expect((await call('dealer_south', 'queryDeviceSuggestedStrategies', { pn: 'SWNORTH0000104' })).err).toBe(257);
    expect((await call('dealer_north', 'queryDeviceSuggestedStrategies', { pn: 'SWNORTH0000104', sn: 'NOSUCH' })).err).toBe(258);
    // Started from the device screen (the engine's action names the strategy): picked up, then its outcome.
    const { key } = await testEngine.start({ target: { pn: 'SWNORTH0000104', target: 0 }, firmwareId: 1, by: { accountId: null, usr: 'x' }, strategyId: id });
    await rollout.runOnce();
    const devs = await call<StrategyDeviceListDat>('dealer_north', 'queryUpgradeStrategyDevices', { code });
    expect(devs.dat!.device).toEqual([expect.objectContaining({ pn: 'SWNORTH0000104', result: 1, key })]);
    await s.ctx.db.updateTable('upgrade_tasks').set({ status: 3, ended_at: s.ctx.now() }).where('key', '=', key!).execute();
    await rollout.runOnce();
    expect(await row('dealer_north', code)).toMatchObject({ upgraded: 1, success: 1 });
    // Upgraded: no longer offered.
    expect((await call<SuggestedStrategy[]>('dealer_north', 'queryDeviceSuggestedStrategies', { pn: 'SWNORTH0000104' })).dat).toEqual([]);
  });
});
