import type { AccountInfoDat, AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantFunctionPoints } from '../../src/db/migrations/0024-plant-function-points.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { idOf, prepare } from '../distribution/helpers.js';

/**
 * Issue 10, gap 4: plant writes need their function points. A sub-administrator (north_ops, for
 * dealer_north) whose role holds device management and the plant list but not `project_add`,
 * `project_edit` or `project_delete` is refused addPlant, editPlant, editPlantEnergyOffset and
 * delPlant with 11; with the buttons the same calls succeed.
 */
describe.each(engines)('plant write function points ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  let rid = 0;
  let dora = 0;
  let plant = 0;
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);

  beforeAll(async () => {
    s = await startTestServer(engine);
    sessions = await prepare(s);
    dora = await idOf(s, 'owner_dora');
    const role = await call<{ rid: number }>('dealer_north', 'addRole', {
      name: 'Plants read only',
      functions: 'device_manag,project_list',
    });
    expect(role.err).toBe(0);
    rid = role.dat!.rid;
    expect((await call('dealer_north', 'assignRole', { uid: await idOf(s, 'north_ops'), rid })).err).toBe(0);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('without the buttons: the plant list reads, every plant write answers 11 and changes nothing', async () => {
    expect((await call('north_ops', 'queryPlants')).err).toBe(0);
    const add = await call('north_ops', 'addPlant', { name: 'By ops', 'address.timezone': 0, uid: dora });
    expect(add.err).toBe(11);
    expect(add.msg).toBe('No permission, please contact the higher-level administrator');
    expect(await s.ctx.db.selectFrom('projects').select('id').where('name', '=', 'By ops').executeTakeFirst()).toBeUndefined();
    // A plant of the subtree, made by its dealer.
    const made = await call<{ pid: number }>('dealer_north', 'addPlant', { name: 'Dora east', 'address.timezone': 0, uid: dora });
    expect(made.err).toBe(0);
    plant = made.dat!.pid;
    expect((await call('north_ops', 'editPlant', { plantid: plant, remark: 'by ops' })).err).toBe(11);
    expect((await call('north_ops', 'editPlantEnergyOffset', { plantid: plant, energyOffset: 5 })).err).toBe(11);
    expect((await call('north_ops', 'delPlant', { plantid: plant })).err).toBe(11);
    const row = await s.ctx.db.selectFrom('projects').selectAll().where('id', '=', plant).executeTakeFirstOrThrow();
    expect(row.remark ?? '').toBe('');
    // The menus say the same: the module and page are checked, the three buttons are not.
    const info = await call<AccountInfoDat>('north_ops', 'queryAccountInfo');
    const device = info.dat!.permission!.find((p) => p.action === 'device_manag')!;
    expect(device.buttons.filter((b) => b.action.startsWith('project_'))).toEqual([
      { action: 'project_add', isCheck: false },
      { action: 'project_edit', isCheck: false },
      { action: 'project_delete', isCheck: false },
    ]);
  });

  it('each button allows its writes only', async () => {
    expect((await call('dealer_north', 'editRole', { rid, functions: 'device_manag,project_list,project_edit' })).err).toBe(0);
    expect((await call('north_ops', 'editPlant', { plantid: plant, remark: 'by ops' })).err).toBe(0);
    expect((await call('north_ops', 'editPlantEnergyOffset', { plantid: plant, energyOffset: 5 })).err).toBe(0);
    expect((await call('north_ops', 'addPlant', { name: 'By ops', 'address.timezone': 0, uid: dora })).err).toBe(11);
    expect((await call('north_ops', 'delPlant', { plantid: plant })).err).toBe(11);

    expect(
      (await call('dealer_north', 'editRole', { rid, functions: 'device_manag,project_list,project_add,project_delete' })).err,
    ).toBe(0);
    expect((await call('north_ops', 'editPlant', { plantid: plant, remark: 'again' })).err).toBe(11);
    const add = await call<{ pid: number }>('north_ops', 'addPlant', { name: 'By ops', 'address.timezone': 0, uid: dora });
    expect(add.err).toBe(0);
    const row = await s.ctx.db.selectFrom('projects').selectAll().where('id', '=', add.dat!.pid).executeTakeFirstOrThrow();
    expect(row.owner_id).toBe(dora);
    expect(row.remark ?? '').toBe('');
    expect((await call('north_ops', 'delPlant', { plantid: add.dat!.pid })).err).toBe(0);
    expect((await call('north_ops', 'delPlant', { plantid: plant })).err).toBe(0);
    expect(await s.ctx.db.selectFrom('projects').select('id').where('id', 'in', [plant, add.dat!.pid]).execute()).toEqual([]);
  });

  it('the migration gives the three buttons to every stored grant with the plant list, and to no other', async () => {
    const now = s.clock.now();
    const admin = await idOf(s, 'sunmaker');
    const ids = [];
    for (const [name, functions] of [
      ['Old plants role', ['device_manag', 'project_list']],
      ['Old account role', ['account_manag', 'account_list']],
    ] as const) {
      const r = await s.ctx.db
        .insertInto('custom_roles')
        .values({ admin_id: admin, name, description: '', functions: JSON.stringify(functions), data_groups: '[]', created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(r.id));
    }
    await plantFunctionPoints().up(s.ctx.db);
    const rows = await s.ctx.db.selectFrom('custom_roles').select(['id', 'functions']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => JSON.parse(r.functions) as string[])).toEqual([
      ['device_manag', 'project_add', 'project_delete', 'project_edit', 'project_list'],
      ['account_manag', 'account_list'],
    ]);
  });
});
