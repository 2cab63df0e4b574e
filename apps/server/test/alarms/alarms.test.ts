import { alarmRuleMatches, alarmText, type AlarmListDat, type AlarmRow } from '@sunwatch/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillAlarmOwners } from '../../src/db/migrations/0018-alarm-owner.js';
import { detectOfflineDataloggers } from '../../src/jobs/detect-offline-dataloggers.job.js';
import { toAlarmRule } from '../../src/modules/alarms/alarm-rules.service.js';
import { seedDemoAlarms } from '../../src/demo/seed-alarms.js';
import { createDatalogger, frame2341, type TestDatalogger } from '../factories/telemetry-ingest.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';

type Session = { token: string; secret: string };
const TZ = 3600; // the test plant: UTC+1
const MIN = 60_000;

/**
 * Issue 11 alarms end to end over the signed API, on SQLite and PostgreSQL: ingestion raises a
 * fault, the lists show it with its code and text in the reader's language, it clears and gets its
 * end time; handling one and many (who, when, 264); scoping (another owner never sees it, a viewer
 * cannot handle); filter rules hide (SQL and the protocol matcher agree); offline alarms; the 7-day
 * statistics.
 */
describe.each(engines)('alarms ($name)', (engine) => {
  let s: TestServer;
  let anna: Session;
  let ben: Session;
  let cara: Session;
  let dl: TestDatalogger;
  let benDl: TestDatalogger;
  const sn = () => `${dl.pn}-INV1`;

  const login = async (usr: string, pwd: string): Promise<Session> => {
    const r = await s.login(usr, pwd);
    expect(r.err).toBe(0);
    return r.dat!;
  };
  const post = (d: TestDatalogger, kind: 'data' | 'heartbeat', body: unknown) =>
    s.request<{ err: number }>(`/ingest/v1/${d.pn}/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
      body: JSON.stringify(body),
    });
  const ingest = async (d: TestDatalogger, ts: number, fault: number) => {
    const r = await post(d, 'data', frame2341(d.pn, ts, 0, { fault }));
    expect(r.body.err).toBe(0);
    await s.ctx.services.telemetry.ingest.drain();
  };
  /** Binds a test datalogger (and its plant) to a demo owner. */
  const bindTo = async (d: TestDatalogger, usr: string) => {
    const owner = (await s.ctx.repos.accounts.findByUsr(usr))!;
    await s.ctx.db
      .updateTable('projects')
      .set({ owner_id: owner.id, city: 'Lübeck', country: 'Germany' })
      .where('id', '=', d.projectId!)
      .execute();
    await s.ctx.db.updateTable('dataloggers').set({ owner_id: owner.id }).where('id', '=', d.id).execute();
  };
  const list = (who: Session, params: Record<string, string | number>) =>
    s.call<AlarmListDat>(who, 'webQueryPlantsWarning', { pagesize: 50, ...params });

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    dl = await createDatalogger(s.ctx, { tz: TZ, heartbeatInterval: 60 });
    benDl = await createDatalogger(s.ctx, { tz: 0 });
    await bindTo(dl, 'owner_anna');
    await bindTo(benDl, 'owner_ben');
    [anna, ben, cara] = await Promise.all([
      login('owner_anna', 'Owner_2026'),
      login('owner_ben', 'Owner_2026'),
      login('viewer_cara', 'Viewer_2026'),
    ]);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a fault raised by ingestion appears with its code, text in the reader language, and clears with an end time', async () => {
    // fault code 2 of devcode 2341: "Over temperature" (fault, level 2)
    await ingest(dl, FIXED_NOW - 30 * MIN, 0);
    await ingest(dl, FIXED_NOW - 20 * MIN, 2);
    await ingest(dl, FIXED_NOW - 15 * MIN, 2); // persists: still one alarm
    const tuple = { pn: dl.pn, devcode: 2341, devaddr: 1, sn: sn() };
    const en = await s.call<AlarmListDat>(anna, 'queryDeviceWarning', { ...tuple, i18n: 'en_US' });
    expect(en.err).toBe(0);
    expect(en.dat!.total).toBe(1);
    const a = en.dat!.warning[0]!;
    expect(a).toMatchObject({
      sn: sn(),
      pn: dl.pn,
      devcode: 2341,
      code: 2,
      level: 2,
      desc: 'Over temperature',
      atype: 'storage-controller',
      gts: '2026-06-15 04:40:00', // 03:40 UTC in UTC+1
      ets: '',
      handle: 0,
      handleUsr: '',
      pid: dl.projectId,
      usr: 'owner_anna',
      timezone: TZ,
      hidden: false,
    });
    expect(a.address).toContain('Lübeck');
    const de = await s.call<AlarmListDat>(anna, 'queryDeviceWarning', { ...tuple, i18n: 'de_DE' });
    expect(de.dat!.warning[0]!.desc).toBe(alarmText(2341, 2, 'de_DE'));
    expect(de.dat!.warning[0]!.desc).not.toBe('Over temperature');
    // the stored English column is not what is shown
    await s.ctx.db.updateTable('alarms').set({ description: 'stale text' }).where('id', '=', a.id).execute();
    const zh = await list(anna, { pn: dl.pn, i18n: 'zh_CN' });
    expect(zh.dat!.warning.map((w) => [w.id, w.desc])).toEqual([[a.id, alarmText(2341, 2, 'zh_CN')]]);

    expect((await s.call<{ count: number }>(anna, 'queryDeviceWarningCount', tuple)).dat).toEqual({ count: 1 });
    expect((await s.call(anna, 'queryPlantWarningDeviceCount', { plantid: dl.projectId! })).dat).toEqual({ count: 1 });
    expect((await list(anna, { pn: dl.pn, state: 2 })).err).toBe(264);

    await ingest(dl, FIXED_NOW - 10 * MIN, 0);
    const after = await list(anna, { pn: dl.pn, state: 2 });
    expect(after.dat!.warning.map((w) => [w.id, w.ets])).toEqual([[a.id, '2026-06-15 04:50:00']]);
    expect((await list(anna, { pn: dl.pn, state: 1 })).err).toBe(264);
    expect((await s.call(anna, 'queryPlantWarningDeviceCount', { plantid: dl.projectId! })).dat).toEqual({ count: 0 });
    // the window: half-open in device time (sdate <= t < edate), both or neither
    const win = (sdate: string, edate: string) =>
      s.call<{ count: number }>(anna, 'queryDeviceWarningCount', { ...tuple, sdate, edate });
    expect((await win('2026-06-15 04:40:00', '2026-06-15 04:41:00')).dat!.count).toBe(1);
    expect((await win('2026-06-15 04:30:00', '2026-06-15 04:40:00')).dat!.count).toBe(0);
    expect((await s.call(anna, 'queryDeviceWarningCount', { ...tuple, sdate: '2026-06-15' })).err).toBe(6);
    // queryPlantsWarning: UTC window, no 264 on an empty page
    const utc = await s.call<AlarmListDat>(anna, 'queryPlantsWarning', {
      pn: dl.pn,
      sdate: '2026-06-15 03:40:00',
      edate: '2026-06-15 03:41:00',
    });
    expect(utc.dat!.total).toBe(1);
    const none = await s.call<AlarmListDat>(anna, 'queryPlantsWarning', { pn: dl.pn, level: '0' });
    expect(none.dat).toEqual({ total: 0, page: 0, pagesize: 10, warning: [] });
  });

  it('scoping: another owner never sees the alarm; a viewer cannot handle', async () => {
    await ingest(benDl, FIXED_NOW - 20 * MIN, 3);
    const annaAlarm = (await list(anna, { pn: dl.pn })).dat!.warning[0]!;
    const benAlarm = (await list(ben, { pn: benDl.pn })).dat!.warning[0]!;
    expect(benAlarm.usr).toBe('owner_ben');
    expect((await list(ben, { pn: dl.pn })).err).toBe(264);
    expect((await list(anna, { pn: benDl.pn })).err).toBe(264);
    const all = await list(ben, {});
    expect(all.dat!.warning.some((w) => w.pn === dl.pn)).toBe(false);
    // one alarm by id (an alarm mail's link): the caller's own, never another owner's
    expect((await list(anna, { id: annaAlarm.id })).dat!.warning.map((w) => w.id)).toEqual([annaAlarm.id]);
    expect((await list(ben, { id: annaAlarm.id })).err).toBe(264);
    expect((await s.call(ben, 'queryDeviceWarning', { pn: dl.pn, devcode: 2341, devaddr: 1, sn: sn() })).err).toBe(258);
    expect((await s.call(ben, 'queryPlantWarningDeviceCount', { plantid: dl.projectId! })).err).toBe(260);
    expect((await s.call(ben, 'ignorePlantWarning', { id: annaAlarm.id })).err).toBe(264);
    expect((await s.call(ben, 'handlePlantWarnings', { id: `${benAlarm.id},${annaAlarm.id}` })).err).toBe(264);
    // all or nothing: ben's own alarm was not handled by the refused call
    expect((await list(ben, { pn: benDl.pn })).dat!.warning[0]!.handle).toBe(0);
    expect((await s.call(cara, 'ignorePlantWarning', { id: annaAlarm.id })).err).toBe(11);
    expect((await s.call(cara, 'addWarningRule', { name: 'mine', hide: 1 })).err).toBe(11);
  });

  it('handling one and many: untreated → processed with who and when, audited; 264 when none', async () => {
    await ingest(dl, FIXED_NOW - 5 * MIN, 5); // a second alarm (fault 5)
    const rows = (await list(anna, { pn: dl.pn })).dat!.warning;
    expect(rows.map((w) => w.code)).toEqual([5, 2]);
    const [second, first] = rows as [AlarmRow, AlarmRow];
    expect((await s.call(anna, 'ignorePlantWarning', { id: first.id })).err).toBe(0);
    const handled = (await list(anna, { pn: dl.pn, handle: 1 })).dat!.warning;
    expect(handled.map((w) => [w.id, w.handle, w.handleUsr, w.handleTs])).toEqual([
      [first.id, 1, 'owner_anna', '2026-06-15 05:00:00'],
    ]);
    expect((await s.call(anna, 'ignorePlantWarning', { id: 987654321 })).err).toBe(264);
    s.clock.advance(MIN);
    const many = await s.call(anna, 'handlePlantWarnings', { id: `${first.id},${second.id}` });
    expect(many).toMatchObject({ err: 0, dat: { count: 1, handleUsr: 'owner_anna', handleTs: '2026-06-15 04:01:00' } });
    const again = (await list(anna, { pn: dl.pn, handle: 1 })).dat!.warning;
    // the first keeps its first handling time
    expect(again.map((w) => [w.id, w.handleTs])).toEqual([
      [second.id, '2026-06-15 05:01:00'],
      [first.id, '2026-06-15 05:00:00'],
    ]);
    expect((await list(anna, { pn: dl.pn, handle: 0 })).err).toBe(264);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id', 'usr', 'before', 'after'])
      .where('entity', '=', 'alarm')
      .where('entity_id', 'in', [String(first.id), String(second.id)])
      .orderBy('id')
      .execute();
    expect(audit.map((r) => [r.action, r.entity_id, r.usr])).toEqual([
      ['ignorePlantWarning', String(first.id), 'owner_anna'],
      ['handlePlantWarnings', String(second.id), 'owner_anna'],
    ]);
    expect(JSON.parse(audit[0]!.before!)).toEqual({ handled: 0 });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ handled: 1, handled_usr: 'owner_anna' });
  });

  it('filter rules hide matching alarms from the lists (SQL and the protocol matcher agree); rules are per account', async () => {
    // hides fault 5 by its German description (upper case), in the plant-local slot 04:00–05:00;
    // fault 2 ("Over temperature") does not contain it
    const keyword = alarmText(2341, 5, 'de_DE').toUpperCase();
    expect(alarmText(2341, 2, 'de_DE').toUpperCase()).not.toContain(keyword);
    const add = await s.call<{ id: number }>(anna, 'addWarningRule', {
      name: 'Night heat',
      desc: keyword,
      stime: '04:00',
      etime: '05:00',
      atype: 'storage-controller',
      hide: 1,
      mute: 1,
    });
    expect(add.err).toBe(0);
    const visible = (await list(anna, { pn: dl.pn })).dat!.warning;
    expect(visible.map((w) => w.code)).toEqual([2]);
    const withHidden = (await list(anna, { pn: dl.pn, hidden: 1 })).dat!.warning;
    expect(withHidden.map((w) => [w.code, w.hidden])).toEqual([
      [5, true],
      [2, false],
    ]);
    expect((await list(anna, { pn: dl.pn, hidden: 2 })).dat!.warning.map((w) => w.code)).toEqual([5]);
    // ben has no rules: his list is unaffected, he cannot see, edit or delete anna's rule
    expect((await s.call<{ total: number }>(ben, 'webQueryWarningRules', {})).dat!.total).toBe(0);
    expect((await s.call(ben, 'editWarningRule', { id: add.dat!.id, name: 'taken over' })).err).toBe(12);
    expect((await s.call(ben, 'delWarningRule', { id: add.dat!.id })).err).toBe(12);
    // a rule on a plant the caller does not see: 260; a duplicate name: 516; no effect: 6
    expect((await s.call(anna, 'addWarningRule', { name: 'Foreign', pid: String(benDl.projectId), hide: 1 })).err).toBe(
      260,
    );
    expect((await s.call(anna, 'addWarningRule', { name: 'night HEAT', hide: 1 })).err).toBe(516);
    expect((await s.call(anna, 'addWarningRule', { name: 'Nothing', mute: 0, hide: 0 })).err).toBe(6);

    // narrowing the slot to 05:00–06:00 shows it again; a no-op edit answers 271
    expect((await s.call(anna, 'editWarningRule', { id: add.dat!.id, stime: '05:00', etime: '06:00' })).err).toBe(0);
    expect((await s.call(anna, 'editWarningRule', { id: add.dat!.id, stime: '05:00' })).err).toBe(271);
    expect((await list(anna, { pn: dl.pn })).dat!.warning.map((w) => w.code)).toEqual([5, 2]);

    // a mix of rules: the SQL filter and alarmRuleMatches give the same hidden set
    const mix: Array<Record<string, string | number>> = [
      { name: 'Level fault', level: '2', hide: 1 },
      { name: 'Code five', code: '5', device: sn().toLowerCase(), hide: 1, enable: 0 },
      { name: 'By PN', device: dl.pn, stime: '22:00', etime: '04:45', hide: 1 },
      { name: 'Mute only', level: '2', mute: 1, hide: 0 },
    ];
    for (const r of mix) expect((await s.call(anna, 'addWarningRule', r)).err).toBe(0);
    const rules = await s.call<{ total: number; rule: Array<{ name: string; enable: number }> }>(
      anna,
      'webQueryWarningRules',
      {},
    );
    expect(rules.dat!.total).toBe(5);
    const stored = (
      await s.ctx.db
        .selectFrom('alarm_rules')
        .selectAll()
        .where('account_id', '=', (await s.ctx.repos.accounts.findByUsr('owner_anna'))!.id)
        .execute()
    ).map(toAlarmRule);
    const everything = (await list(anna, { hidden: 1 })).dat!.warning;
    const hiddenIds = new Set(((await list(anna, { hidden: 2 })).dat?.warning ?? []).map((w) => w.id));
    for (const w of everything) {
      const facts = {
        devcode: w.devcode < 0 ? null : w.devcode,
        devtype: w.devtype || null,
        code: w.code,
        level: w.level,
        sn: w.sn,
        pn: w.pn,
        pid: w.pid || null,
        timezone: w.timezone,
      };
      const started = Date.parse(`${w.gts.replace(' ', 'T')}Z`) - w.timezone * 1000;
      const byMatcher = stored.some((r) => r.hide && alarmRuleMatches(r, facts, started));
      expect([w.id, hiddenIds.has(w.id)]).toEqual([w.id, byMatcher]);
      expect(w.hidden).toBe(byMatcher);
    }
    expect(hiddenIds.size).toBeGreaterThan(0);
    // every rule deleted: nothing hidden
    for (const r of stored) expect((await s.call(anna, 'delWarningRule', { id: r.id })).err).toBe(0);
    expect((await list(anna, { hidden: 2 })).err).toBe(264);
    const audit = await s.ctx.db.selectFrom('audit_log').select('action').where('entity', '=', 'alarm_rule').execute();
    expect(audit.filter((r) => r.action === 'delWarningRule')).toHaveLength(5);
  });

  it('offline detection raises a level-3 offline alarm for the datalogger; the next heartbeat ends it', async () => {
    expect((await post(dl, 'heartbeat', { pn: dl.pn, ts: s.clock.now() })).body.err).toBe(0);
    s.clock.advance(4 * MIN);
    expect(await detectOfflineDataloggers(s.ctx)).toContain(dl.id);
    const off = (await list(anna, { pn: dl.pn, level: '3', i18n: 'de_DE' })).dat!.warning;
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({
      code: 263,
      level: 3,
      sn: '',
      devcode: -1,
      atype: 'datalogger',
      desc: 'Datenlogger offline',
      ets: '',
    });
    expect((await s.call(anna, 'queryPlantWarningDeviceCount', { plantid: dl.projectId!, level: '3' })).dat).toEqual({
      count: 1,
    });
    s.clock.advance(MIN);
    expect((await post(dl, 'heartbeat', { pn: dl.pn, ts: s.clock.now() })).body.err).toBe(0);
    await s.ctx.services.telemetry.ingest.drain();
    const ended = (await list(anna, { pn: dl.pn, level: '3', atype: 'datalogger' })).dat!.warning;
    expect(ended.map((w) => [w.id, w.desc, w.ets !== ''])).toEqual([[off[0]!.id, 'Datalogger offline', true]]);
  });

  it('the demo seed adds an ended alarm history once (DEMO_DATA)', async () => {
    expect(await seedDemoAlarms(s)).toBe(4);
    expect(await seedDemoAlarms(s)).toBe(0);
    const rows = (await list(anna, { pn: 'SWNORTH0000001', state: 2 })).dat!.warning;
    expect(rows.map((w) => [w.code, w.handle, w.handleUsr])).toEqual([
      [263, 0, ''],
      [263, 1, 'operator'],
    ]);
    expect((await list(ben, { pn: 'SWNORTH0000001' })).err).toBe(264);
  });

  it('the 7-day statistics count alarms per local day and type', async () => {
    // an alarm 3 days ago (plant-local) and one 8 days ago (outside the window)
    const dev = await s.ctx.db.selectFrom('devices').select('id').where('pn', '=', dl.pn).executeTakeFirstOrThrow();
    for (const [daysAgo, level, code] of [
      [3, 1, 10],
      [8, 2, 1],
    ] as const)
      await s.ctx.db
        .insertInto('alarms')
        .values({
          datalogger_id: dl.id,
          device_id: dev.id,
          level,
          code,
          description: '',
          started_at: FIXED_NOW - daysAgo * 86_400_000,
          ended_at: FIXED_NOW,
          handled: 0,
        })
        .execute();
    const st = await s.call<{
      days: Array<{ date: string; warning: number; error: number; fault: number; offline: number; total: number }>;
      total: { total: number; fault: number; error: number; offline: number };
      untreated: number;
      ongoing: number;
    }>(anna, 'webQueryWarningStatistic', { plantid: dl.projectId! });
    expect(st.err).toBe(0);
    expect(st.dat!.days.map((d) => d.date)).toEqual([
      '2026-06-09',
      '2026-06-10',
      '2026-06-11',
      '2026-06-12',
      '2026-06-13',
      '2026-06-14',
      '2026-06-15',
    ]);
    expect(st.dat!.days[6]).toMatchObject({ fault: 2, offline: 1, error: 0, total: 3 });
    expect(st.dat!.days[3]).toMatchObject({ error: 1, total: 1 });
    expect(st.dat!.total).toMatchObject({ total: 4, fault: 2, error: 1, offline: 1 });
    expect(st.dat!.untreated).toBe(2); // the offline alarm and the one 3 days ago
    expect(st.dat!.ongoing).toBe(1); // fault 5
    expect((await s.call(ben, 'webQueryWarningStatistic', { plantid: dl.projectId! })).err).toBe(260);
  });

  it('owner at alarm time: alarms raised before the plant changes owner keep the old owner (ingest, offline job, backfill)', async () => {
    const moved = await createDatalogger(s.ctx, { tz: 0, heartbeatInterval: 60 });
    await bindTo(moved, 'owner_anna');
    const annaId = (await s.ctx.repos.accounts.findByUsr('owner_anna'))!.id;
    const benId = (await s.ctx.repos.accounts.findByUsr('owner_ben'))!.id;
    const t0 = s.clock.now();
    // under anna: a fault by ingestion, then the offline job's alarm
    await ingest(moved, t0 - 30 * MIN, 0);
    await ingest(moved, t0 - 20 * MIN, 2);
    expect((await post(moved, 'heartbeat', { pn: moved.pn, ts: t0 })).body.err).toBe(0);
    await s.ctx.services.telemetry.ingest.drain();
    s.clock.advance(4 * MIN);
    expect(await detectOfflineDataloggers(s.ctx)).toContain(moved.id);
    // the plant (and its datalogger) changes owner; the next fault is ben's
    await bindTo(moved, 'owner_ben');
    s.clock.advance(10 * MIN);
    expect((await post(moved, 'heartbeat', { pn: moved.pn, ts: s.clock.now() })).body.err).toBe(0);
    await ingest(moved, s.clock.now() - MIN, 0);
    await ingest(moved, s.clock.now(), 5);
    const rows = (await list(ben, { pn: moved.pn })).dat!.warning;
    expect(rows.map((w) => [w.code, w.uid, w.usr])).toEqual([
      [5, benId, 'owner_ben'],
      [263, annaId, 'owner_anna'],
      [2, annaId, 'owner_anna'],
    ]);
    // `uid` filters by the owner at alarm time; anna no longer sees the plant at all
    expect((await list(ben, { pn: moved.pn, uid: annaId })).dat!.warning.map((w) => w.code)).toEqual([263, 2]);
    expect((await list(ben, { pn: moved.pn, uid: benId })).dat!.warning.map((w) => w.code)).toEqual([5]);
    expect((await list(anna, { pn: moved.pn })).err).toBe(264);
    // the migration's backfill gives rows without an owner the plant's current owner, and keeps the others
    const fault5 = rows[0]!.id;
    const fault2 = rows[2]!.id;
    await s.ctx.db.updateTable('alarms').set({ owner_id: null }).where('id', '=', fault2).execute();
    await backfillAlarmOwners(s.ctx.db);
    const after = (await list(ben, { pn: moved.pn })).dat!.warning;
    expect(after.map((w) => [w.id, w.usr])).toEqual([
      [fault5, 'owner_ben'],
      [rows[1]!.id, 'owner_anna'],
      [fault2, 'owner_ben'],
    ]);
  });

  it('alarm_counts (the totals of unfiltered lists) follow every insert, end, handling and delete', async () => {
    // every earlier test of this file raised, ended, handled or inserted alarms; now a delete too
    const victim = await s.ctx.db.selectFrom('alarms').select('id').orderBy('id').executeTakeFirstOrThrow();
    await s.ctx.db.deleteFrom('alarms').where('id', '=', victim.id).execute();
    const byRows = await s.ctx.db
      .selectFrom('alarms')
      .select(['datalogger_id', 'level', 'handled', sql<number>`case when ended_at is null then 1 else 0 end`.as('open')])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .groupBy(['datalogger_id', 'level', 'handled', sql`case when ended_at is null then 1 else 0 end`])
      .execute();
    const counters = await s.ctx.db.selectFrom('alarm_counts').selectAll().where('n', '<>', 0).execute();
    const key = (r: { datalogger_id: number; level: number; handled: number; open: number; n: number }) =>
      [r.datalogger_id, r.level, r.handled, r.open, r.n].map(Number).join('/');
    expect(counters.map(key).sort()).toEqual(byRows.map(key).sort());
    expect(byRows.some((r) => Number(r.open) === 0) && byRows.some((r) => Number(r.handled) === 1)).toBe(true);
    // the list's total (by counters) equals its rows (anna: no rules left)
    const all = (await list(anna, {})).dat!;
    expect(all.total).toBe(all.warning.length);
    const untreated = (await list(anna, { handle: 0, state: 2 })).dat!;
    expect(untreated.total).toBe(all.warning.filter((w) => w.handle === 0 && w.ets !== '').length);
  });
});
