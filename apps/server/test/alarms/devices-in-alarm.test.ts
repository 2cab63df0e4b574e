import type { AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDatalogger, insertDevice, insertPlant } from '../factories/telemetry-rows.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';

/**
 * queryPlantsWarningDeviceCount (vendor-actions.md §8, SM:ch3: `devtype`, `level` → `count`):
 * the number of devices in alarm (an ongoing alarm; a datalogger's own alarm, e.g. offline, counts
 * as one source) over every plant the caller sees. Checked against queryPlantWarningDeviceCount of
 * each plant: a device with two ongoing alarms counts once, ended alarms do not count, the level
 * and device-type filters, the caller's hiding rules, another owner's plants never count, and the
 * wire shape (`dat` is exactly `{count}`; a bad filter is 6).
 */
const MIN = 60_000;

describe.each(engines)('queryPlantsWarningDeviceCount ($name)', (engine) => {
  let s: TestServer;
  const who: Record<string, AuthDat> = {};
  let plantA1 = 0;
  let plantA2 = 0;
  let plantB = 0;
  let dlA2 = 0;
  const dev: Record<string, { id: number; dl: number }> = {};
  const count = async (usr: string, params: Record<string, string | number> = {}) => {
    const r = await s.call<{ count: number }>(who[usr]!, 'queryPlantsWarningDeviceCount', params);
    expect(r.err, JSON.stringify(r)).toBe(0);
    // The wire shape: exactly {count}, a number.
    expect(Object.keys(r.dat!)).toEqual(['count']);
    expect(typeof r.dat!.count).toBe('number');
    return r.dat!.count;
  };
  const plantCount = async (usr: string, plantid: number, params: Record<string, string | number> = {}) => {
    const r = await s.call<{ count: number }>(who[usr]!, 'queryPlantWarningDeviceCount', { plantid, ...params });
    expect(r.err).toBe(0);
    return r.dat!.count;
  };
  const alarm = async (
    d: { dl: number; id: number | null },
    level: number,
    code: number,
    owner: number,
    ended = false,
  ): Promise<number> => {
    const r = await s.ctx.db
      .insertInto('alarms')
      .values({
        datalogger_id: d.dl,
        device_id: d.id,
        level,
        code,
        description: `Test ${code}`,
        started_at: FIXED_NOW - 30 * MIN,
        ended_at: ended ? FIXED_NOW - 10 * MIN : null,
        handled: 0,
        owner_id: owner,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    for (const [usr, pwd] of [
      ['owner_anna', 'Owner_2026'],
      ['owner_ben', 'Owner_2026'],
    ] as const) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      who[usr] = r.dat!;
    }
    const db = s.ctx.db;
    const now = FIXED_NOW;
    const anna = who.owner_anna!.uid;
    const ben = who.owner_ben!.uid;
    plantA1 = await insertPlant(db, { owner_id: anna, name: 'Count A1', now });
    plantA2 = await insertPlant(db, { owner_id: anna, name: 'Count A2', now });
    plantB = await insertPlant(db, { owner_id: ben, name: 'Count B', now });
    const dlA1 = await insertDatalogger(db, { pn: 'CNTA1000000001', now, owner_id: anna, project_id: plantA1 });
    dlA2 = await insertDatalogger(db, { pn: 'CNTA2000000001', now, owner_id: anna, project_id: plantA2 });
    const dlB = await insertDatalogger(db, { pn: 'CNTB0000000001', now, owner_id: ben, project_id: plantB });
    const add = async (name: string, dl: number, pn: string, devcode: number, devaddr: number, project: number) => {
      dev[name] = {
        dl,
        id: await insertDevice(db, { datalogger_id: dl, pn, devcode, devaddr, sn: `CNT-${name}`, now, project_id: project }),
      };
    };
    await add('a1', dlA1, 'CNTA1000000001', 2341, 1, plantA1); // devtype 2304
    await add('a2', dlA1, 'CNTA1000000001', 5121, 2, plantA1); // devtype 512
    await add('a3', dlA2, 'CNTA2000000001', 5123, 1, plantA2); // devtype 1792
    await add('a4', dlA2, 'CNTA2000000001', 5124, 2, plantA2); // devtype 1024
    await add('b1', dlB, 'CNTB0000000001', 2341, 1, plantB);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('counts the devices in alarm over the caller’s plants: per plant summed, filters, rules, scoping, wire shape', async () => {
    const anna = who.owner_anna!.uid;
    const ben = who.owner_ben!.uid;
    // Nothing ongoing yet (the demo seed raises no ongoing alarm in tests).
    expect(await count('owner_anna')).toBe(0);
    expect(await count('owner_ben')).toBe(0);

    await alarm(dev.a1!, 2, 2, anna); // fault …
    const a1Warning = await alarm(dev.a1!, 0, 30, anna); // … and a warning on the same device: one device
    await alarm(dev.a2!, 1, 7, anna); // error
    const a3Fault = await alarm(dev.a3!, 2, 4, anna); // fault
    await alarm(dev.a4!, 2, 5, anna, true); // ended: not in alarm
    await alarm({ dl: dlA2, id: null }, 3, 0, anna); // the datalogger offline: one source
    await alarm(dev.b1!, 2, 2, ben); // Ben's plant

    // Anna: a1, a2 on A1; a3 and the offline datalogger on A2. The sum of the per-plant counts.
    expect(await plantCount('owner_anna', plantA1)).toBe(2);
    expect(await plantCount('owner_anna', plantA2)).toBe(2);
    expect(await count('owner_anna')).toBe(4);
    // Ben sees only his own plant; Anna's devices never count for him, nor his for her.
    expect(await count('owner_ben')).toBe(1);
    expect((await s.call(who.owner_ben!, 'queryPlantWarningDeviceCount', { plantid: plantA1 })).err).toBe(260);

    // Level filter (CSV of types): faults a1, a3; warnings a1; fault or warning a1, a3; offline 1.
    expect(await count('owner_anna', { level: '2' })).toBe(2);
    expect(await count('owner_anna', { level: '0' })).toBe(1);
    expect(await count('owner_anna', { level: '0,2' })).toBe(2);
    expect(await count('owner_anna', { level: '1' })).toBe(1);
    expect(await count('owner_anna', { level: '3' })).toBe(1);
    // Device type filter (wire devtype): 2304 a1, 512 a2, 1792 a3; 1024 a4 only has an ended alarm.
    expect(await count('owner_anna', { devtype: 2304 })).toBe(1);
    expect(await count('owner_anna', { devtype: 512 })).toBe(1);
    expect(await count('owner_anna', { devtype: 1792 })).toBe(1);
    expect(await count('owner_anna', { devtype: 1024 })).toBe(0);
    expect(await count('owner_anna', { devtype: 2304, level: '1' })).toBe(0);
    expect(await count('owner_ben', { devtype: 2304, level: '2' })).toBe(1);

    // A hiding rule of the caller (fault 4) takes a3's only alarm out; Ben's count is his own.
    const rule = await s.call<{ id: number }>(who.owner_anna!, 'addWarningRule', { name: 'Hide 4', code: '4', hide: 1, mute: 0 });
    expect(rule.err).toBe(0);
    expect(await count('owner_anna')).toBe(3);
    expect(await count('owner_anna', { level: '2' })).toBe(1);
    expect(await plantCount('owner_anna', plantA2)).toBe(1);
    expect((await s.call(who.owner_anna!, 'delWarningRule', { id: rule.dat!.id })).err).toBe(0);
    expect(await count('owner_anna')).toBe(4);

    // An alarm that ends takes its device out only when it was the device's last ongoing one.
    await s.ctx.db.updateTable('alarms').set({ ended_at: FIXED_NOW - MIN }).where('id', '=', a1Warning).execute();
    expect(await count('owner_anna')).toBe(4);
    expect(await count('owner_anna', { level: '0' })).toBe(0);
    await s.ctx.db.updateTable('alarms').set({ ended_at: FIXED_NOW - MIN }).where('id', '=', a3Fault).execute();
    expect(await count('owner_anna')).toBe(3);
    expect(await plantCount('owner_anna', plantA2)).toBe(1);

    // Bad filters: parameter error 6.
    expect((await s.call(who.owner_anna!, 'queryPlantsWarningDeviceCount', { level: 'x' })).err).toBe(6);
    expect((await s.call(who.owner_anna!, 'queryPlantsWarningDeviceCount', { devtype: 'abc' })).err).toBe(6);
  });
});
