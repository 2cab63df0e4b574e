import {
  ROLE,
  type AccountInfoDat,
  type AuthDat,
  type CtrlFieldForDist,
  type CustomRoleDat,
  type Envelope,
  type PlantListDat,
  type UsrGroupRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';

/**
 * Issue 9, roles and groups (docs/accounts/roles-groups.md): user groups, group accounts bound to
 * a group, custom roles with function points and data permissions, the dispatcher's per-action
 * check from the same role data as the menus, and control-field visibility.
 */
const PASSWORDS: Record<string, string> = {
  operator: 'Operator_2026',
  sunmaker: 'Maker_2026',
  dealer_north: 'Dealer_2026',
  dealer_south: 'Dealer_2026',
  north_ops: 'SubAdmin_2026',
  group_east: 'Group_2026',
  owner_anna: 'Owner_2026',
  owner_ben: 'Owner_2026',
};

type Groups = { total: number; group: UsrGroupRow[] };
type Roles = { total: number; role: CustomRoleDat[] };

describe.each(engines)('roles, groups and control fields ($name)', (engine) => {
  let s: TestServer;
  const sessions = new Map<string, AuthDat>();
  const uid = new Map<string, number>();

  const call = <T = unknown>(who: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(who)!, action, params);
  const ok = async <T = unknown>(
    who: string,
    action: string,
    params: Record<string, string | number> = {},
  ): Promise<T> => {
    const res = await call<T>(who, action, params);
    expect(res.err, `${who} ${action} ${res.desc}`).toBe(0);
    return res.dat as T;
  };
  const err = async (
    who: string,
    action: string,
    params: Record<string, string | number> = {},
  ): Promise<Envelope<unknown>> => {
    const res = await call(who, action, params);
    expect(res.err, `${who} ${action} must fail`).not.toBe(0);
    return res;
  };
  const plantOwners = async (who: string) =>
    [...new Set((await ok<PlantListDat>(who, 'queryPlants', { pagesize: 50 })).plant.map((p) => p.usr))].sort();

  /** Creates an account directly (the account actions belong to another part of the issue) and signs it in. */
  async function account(usr: string, role: number, parent: string, adminOf?: string): Promise<void> {
    const row = await s.ctx.services.accounts.create({
      usr,
      password: 'Test_2026x',
      role: role as 0,
      parentId: uid.get(parent)!,
      adminOf: adminOf ? uid.get(adminOf)! : null,
    });
    uid.set(usr, row.id);
    const res = await s.login(usr, 'Test_2026x');
    expect(res.err, usr).toBe(0);
    sessions.set(usr, res.dat!);
  }

  beforeAll(async () => {
    s = await startTestServer(engine);
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const res = await s.login(usr, pwd);
      expect(res.err, usr).toBe(0);
      sessions.set(usr, res.dat!);
      uid.set(usr, res.dat!.uid);
    }
    // Another tenant: a second manufacturer with a distributor and an owner.
    await account('othermaker', ROLE.MANUFACTURER, 'operator');
    await account('other_owner', ROLE.OWNER, 'othermaker');
    // Sub-administrators of sunmaker (no role bound yet: they hold no permission).
    await account('maker_ops', ROLE.DISTRIBUTOR, 'sunmaker', 'sunmaker');
    await account('maker_north_only', ROLE.DISTRIBUTOR, 'sunmaker', 'sunmaker');
  });
  afterAll(async () => {
    await s?.stop();
  });

  describe('user groups', () => {
    let gid = 0;

    it('creates a group with a note, unique per administrator (516), name required (7)', async () => {
      gid = (await ok<{ groupid: number }>('sunmaker', 'addUsrGroup', { name: 'Key accounts', note: 'top ten' }))
        .groupid;
      expect(gid).toBeGreaterThan(0);
      expect((await err('sunmaker', 'addUsrGroup', { name: 'Key accounts' })).err).toBe(516);
      expect((await err('sunmaker', 'addUsrGroup', { name: '   ' })).err).toBe(7);
      // Another administrator may use the same name.
      await ok('dealer_north', 'addUsrGroup', { name: 'Key accounts' });
      const list = await ok<Groups>('sunmaker', 'queryUsrGroups', { name: 'key' });
      expect(list.group).toEqual([
        expect.objectContaining({ groupid: gid, name: 'Key accounts', note: 'top ten', count: 0 }),
      ]);
      expect(list.group[0]!.gts).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    it("renames and re-notes; another administrator's group answers 369", async () => {
      await ok('sunmaker', 'editUsrGroup', { groupid: gid, name: 'VIP', note: '' });
      const row = (await ok<Groups>('sunmaker', 'queryUsrGroups')).group.find((g) => g.groupid === gid)!;
      expect(row).toMatchObject({ name: 'VIP', note: '' });
      expect((await err('dealer_north', 'editUsrGroup', { groupid: gid, name: 'mine' })).err).toBe(369);
      expect((await err('dealer_north', 'delUsrGroup', { groupid: gid })).err).toBe(369);
      expect((await err('sunmaker', 'editUsrGroup', { groupid: 999999, name: 'x' })).err).toBe(369);
      expect((await ok<Groups>('dealer_north', 'queryUsrGroups')).group.map((g) => g.name)).toEqual(['Key accounts']);
    });

    it('moves accounts in reach only (11), into own groups only (369), and counts members', async () => {
      await ok('sunmaker', 'moveAccountGroup', {
        uid: `${uid.get('owner_ben')},${uid.get('dealer_south')}`,
        groupid: gid,
      });
      expect((await ok<Groups>('sunmaker', 'queryUsrGroups')).group.find((g) => g.groupid === gid)!.count).toBe(2);
      expect((await err('sunmaker', 'moveAccountGroup', { uid: uid.get('other_owner')!, groupid: gid })).err).toBe(11);
      expect((await err('sunmaker', 'moveAccountGroup', { uid: 999999, groupid: gid })).err).toBe(11);
      expect((await err('sunmaker', 'moveAccountGroup', { uid: uid.get('sunmaker')!, groupid: gid })).err).toBe(11);
      expect((await err('dealer_north', 'moveAccountGroup', { uid: uid.get('owner_anna')!, groupid: gid })).err).toBe(
        369,
      );
      // All-or-nothing: one account out of reach moves none.
      await err('sunmaker', 'moveAccountGroup', {
        uid: `${uid.get('owner_anna')},${uid.get('other_owner')}`,
        groupid: gid,
      });
      expect((await s.ctx.repos.accounts.findById(uid.get('owner_anna')!))!.group_id).not.toBe(gid);
      await ok('sunmaker', 'moveAccountGroup', { uid: uid.get('dealer_south')!, groupid: '' });
      expect((await ok<Groups>('sunmaker', 'queryUsrGroups')).group.find((g) => g.groupid === gid)!.count).toBe(1);
    });

    it('deletes a group: its members become ungrouped; the change is audited', async () => {
      await ok('sunmaker', 'delUsrGroup', { groupid: gid });
      expect((await ok<Groups>('sunmaker', 'queryUsrGroups')).group.some((g) => g.groupid === gid)).toBe(false);
      expect((await s.ctx.repos.accounts.findById(uid.get('owner_ben')!))!.group_id).toBeNull();
      const audit = await s.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity', '=', 'user_group')
        .where('entity_id', '=', String(gid))
        .where('action', '=', 'delUsrGroup')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.before!)).toMatchObject({ name: 'VIP', members: [uid.get('owner_ben')] });
      expect(audit.after).toBeNull();
    });
  });

  describe('group accounts see the union of their bound group', () => {
    it('sees what its members hold; moving an account in or out changes it at once', async () => {
      // The demo's group_east is bound to a group of sunmaker holding dealer_north, owner_anna and
      // owner_fay (who holds no plant).
      expect(await plantOwners('group_east')).toEqual(['owner_anna']);
      const east = (await ok<Groups>('sunmaker', 'queryUsrGroups')).group.find((g) => g.name === 'group_east')!;
      expect(east.count).toBe(3);

      await ok('sunmaker', 'moveAccountGroup', { uid: uid.get('owner_ben')!, groupid: east.groupid });
      expect(await plantOwners('group_east')).toEqual(['owner_anna', 'owner_ben']);
      const benPlant = (await ok<PlantListDat>('owner_ben', 'queryPlants')).plant[0]!.pid;
      expect((await call('group_east', 'queryPlantInfo', { plantid: benPlant })).err).toBe(0);

      await ok('sunmaker', 'moveAccountGroup', { uid: uid.get('owner_ben')!, groupid: '' });
      expect(await plantOwners('group_east')).toEqual(['owner_anna']);
      expect((await call('group_east', 'queryPlantInfo', { plantid: benPlant })).err).toBe(260);
      expect((await call('group_east', 'queryAccountInfo', { uid: uid.get('owner_ben')! })).err).toBe(11);
    });

    it('a group bound to a group account cannot be deleted (518)', async () => {
      const east = (await ok<Groups>('sunmaker', 'queryUsrGroups')).group.find((g) => g.name === 'group_east')!;
      const res = await err('sunmaker', 'delUsrGroup', { groupid: east.groupid });
      expect(res.err).toBe(518);
      expect(res.msg).toBe("The group is still used by a group account or a role's data permissions");
    });
  });

  describe('custom roles', () => {
    let viewRid = 0;

    it('creates roles: unique name (516 with its own message in every language), known function points (6)', async () => {
      const dat = await ok<{ rid: number }>('sunmaker', 'addRole', {
        name: 'Account viewer',
        desc: 'reads accounts',
        functions: 'account_list,group_list',
      });
      viewRid = dat.rid;
      const dup = await err('sunmaker', 'addRole', { name: 'Account viewer' });
      expect(dup.err).toBe(516);
      expect(dup.msg).toBe('The role name already exists, please re-enter');
      const zh = await call('sunmaker', 'addRole', { name: 'Account viewer', i18n: 'zh_CN' });
      expect(zh.msg).toBe('角色名称已存在，请重新输入');
      expect((await err('sunmaker', 'addRole', { name: 'Bad', functions: 'account_list,steal_everything' })).err).toBe(
        6,
      );
      expect((await err('sunmaker', 'addRole', { name: '' })).err).toBe(7);
      const list = await ok<Roles>('sunmaker', 'queryRoles', { name: 'viewer' });
      expect(list.role).toEqual([
        expect.objectContaining({
          rid: viewRid,
          name: 'Account viewer',
          desc: 'reads accounts',
          // A granted page brings its module.
          functions: ['account_list', 'account_manag', 'group_list'],
          dataGroups: [],
          users: 0,
          boundToDist: false,
        }),
      ]);
      // Roles are per administrator: dealer_north sees none of sunmaker's.
      expect((await ok<Roles>('dealer_north', 'queryRoles')).total).toBe(0);
    });

    it("assignRole: rid required (7), the caller's (368), accounts in reach (11), never itself", async () => {
      const missing = await err('sunmaker', 'assignRole', { uid: uid.get('maker_ops')! });
      expect(missing.err).toBe(7);
      expect(missing.msg).toBe('A role is required when assigning permissions');
      const northRid = (await ok<{ rid: number }>('dealer_north', 'addRole', { name: 'North role' })).rid;
      expect((await err('sunmaker', 'assignRole', { uid: uid.get('maker_ops')!, rid: northRid })).err).toBe(368);
      expect((await err('sunmaker', 'assignRole', { uid: uid.get('other_owner')!, rid: viewRid })).err).toBe(11);
      expect((await err('sunmaker', 'assignRole', { uid: uid.get('sunmaker')!, rid: viewRid })).err).toBe(11);
      await ok('sunmaker', 'assignRole', { uid: uid.get('maker_ops')!, rid: viewRid });
      expect((await s.ctx.repos.accounts.findById(uid.get('maker_ops')!))!.role_permission_id).toBe(viewRid);
    });

    it("a sub-administrator's menus and per-action checks come from its role; an edit counts from the next call", async () => {
      const info = await ok<AccountInfoDat>('maker_ops', 'queryAccountInfo');
      const account = info.permission!.find((p) => p.action === 'account_manag')!;
      expect(account.isCheck).toBe(true);
      expect(account.first_menus.filter((m) => m.isCheck).map((m) => m.action)).toEqual(['account_list', 'group_list']);
      expect(account.buttons.every((b) => !b.isCheck)).toBe(true);
      expect(info.permission!.filter((p) => p.isCheck).map((p) => p.action)).toEqual(['account_manag']);

      // Module granted, no function point: reading works, writing is refused with the no-permission message.
      expect((await ok<Groups>('maker_ops', 'queryUsrGroups')).total).toBeGreaterThan(0);
      const refused = await err('maker_ops', 'addUsrGroup', { name: 'By ops' });
      expect(refused.err).toBe(11);
      expect(refused.msg).toBe('No permission, please contact the higher-level administrator');
      // No device module: the device pages refuse too.
      expect((await err('maker_ops', 'queryPlants')).err).toBe(11);

      // A second instance on the same database (as behind a load balancer) sees the edit at once.
      const other = await startTestServer(engine, { shareWith: s, seed: false });
      try {
        await ok('sunmaker', 'editRole', { rid: viewRid, functions: 'account_list,group_list,account_edit' });
        const again = await other.call<{ groupid: number }>(sessions.get('maker_ops')!, 'addUsrGroup', {
          name: 'By ops',
        });
        expect(again.err).toBe(0);
        // A sub-administrator works on the groups of the account it administers.
        expect((await ok<Groups>('sunmaker', 'queryUsrGroups', { name: 'By ops' })).total).toBe(1);
        await ok('sunmaker', 'editRole', { rid: viewRid, functions: 'account_list' });
        expect((await other.call(sessions.get('maker_ops')!, 'addUsrGroup', { name: 'By ops 2' })).err).toBe(11);
      } finally {
        await other.stop();
      }
    });

    it('a sub-administrator cannot grant more than it holds, nor bind a role to itself', async () => {
      await ok('sunmaker', 'editRole', { rid: viewRid, functions: 'account_list,group_list,role_list,account_edit' });
      expect((await err('maker_ops', 'addRole', { name: 'Escalate', functions: 'device_manag' })).err).toBe(11);
      const own = await ok<{ rid: number }>('maker_ops', 'addRole', { name: 'Small', functions: 'group_list' });
      expect((await err('maker_ops', 'assignRole', { uid: uid.get('maker_ops')!, rid: own.rid })).err).toBe(11);
      expect((await err('maker_ops', 'assignRole', { uid: uid.get('sunmaker')!, rid: own.rid })).err).toBe(11);
      // The role is sunmaker's (the administrator the sub-administrator works for).
      expect((await ok<Roles>('sunmaker', 'queryRoles', { name: 'Small' })).total).toBe(1);
    });

    it('a role bound to an account cannot be deleted (528); an unbound one can', async () => {
      expect((await err('sunmaker', 'delRole', { rid: viewRid })).err).toBe(528);
      const rid = (await ok<{ rid: number }>('sunmaker', 'addRole', { name: 'Temporary' })).rid;
      await ok('sunmaker', 'delRole', { rid });
      expect((await ok<Roles>('sunmaker', 'queryRoles', { name: 'Temporary' })).total).toBe(0);
      expect((await err('dealer_north', 'delRole', { rid: viewRid })).err).toBe(368);
    });

    it('a distributor cannot be bound to a role with data permissions, nor its role get one (11)', async () => {
      const gid = (await ok<{ groupid: number }>('sunmaker', 'addUsrGroup', { name: 'North only' })).groupid;
      await ok('sunmaker', 'moveAccountGroup', { uid: uid.get('dealer_north')!, groupid: gid });
      const dataRid = (
        await ok<{ rid: number }>('sunmaker', 'addRole', {
          name: 'North data',
          functions: 'overview,device_manag',
          dataGroups: gid,
        })
      ).rid;
      const refused = await err('sunmaker', 'assignRole', { uid: uid.get('dealer_south')!, rid: dataRid });
      expect(refused.err).toBe(11);
      expect(refused.msg).toBe('A distributor cannot be bound to a role with data permissions');

      const distRid = (
        await ok<{ rid: number }>('sunmaker', 'addRole', {
          name: 'Dealer role',
          functions: 'overview,device_manag,account_manag',
        })
      ).rid;
      await ok('sunmaker', 'assignRole', { uid: uid.get('dealer_south')!, rid: distRid });
      expect((await ok<Roles>('sunmaker', 'queryRoles', { name: 'Dealer role' })).role[0]).toMatchObject({
        users: 1,
        boundToDist: true,
      });
      const frozen = await err('sunmaker', 'editRole', { rid: distRid, dataGroups: gid });
      expect(frozen.err).toBe(11);
      expect(frozen.msg).toBe('The data permissions of a role bound to a distributor cannot be edited');
      // Its function points still limit the distributor: no account_add button.
      expect((await err('dealer_south', 'addUsrGroup', { name: 'South' })).err).toBe(11);
      expect((await ok<Groups>('dealer_south', 'queryUsrGroups')).total).toBe(0);
      // Foreign group in a data permission: 369.
      const northGroup = (await ok<Groups>('dealer_north', 'queryUsrGroups')).group[0]!.groupid;
      expect((await err('sunmaker', 'addRole', { name: 'Foreign data', dataGroups: northGroup })).err).toBe(369);
      // The same rule for the account-creating actions (addDist/addSubAdmin `rid`).
      const maker = (await s.ctx.repos.accounts.findById(uid.get('sunmaker')!))!;
      const makerCaller = {
        accountId: maker.id,
        usr: maker.usr,
        role: maker.role,
        path: maker.path,
        status: 0,
        adminOf: null,
        permissions: null,
        sessionId: 0,
      };
      await expect(
        s.ctx.services.roles.bindableRole(makerCaller, dataRid, { role: ROLE.DISTRIBUTOR, admin_of: null }),
      ).rejects.toMatchObject({ code: 11 });
      expect(
        await s.ctx.services.roles.bindableRole(makerCaller, dataRid, { role: ROLE.DISTRIBUTOR, admin_of: maker.id }),
      ).toBe(dataRid);
      await expect(
        s.ctx.services.roles.bindableRole(makerCaller, northGroup + 100000, { role: 0, admin_of: null }),
      ).rejects.toMatchObject({ code: 368 });
      // A group a role's data permission names cannot be deleted.
      expect((await err('sunmaker', 'delUsrGroup', { groupid: gid })).err).toBe(518);
    });

    it("a sub-administrator with a data permission reaches only those groups' accounts and their data", async () => {
      const dataRid = (await ok<Roles>('sunmaker', 'queryRoles', { name: 'North data' })).role[0]!.rid;
      // Before: the whole subtree of sunmaker (a role without data permission).
      await ok('sunmaker', 'addRole', { name: 'All data', functions: 'overview,device_manag,account_manag' });
      const allRid = (await ok<Roles>('sunmaker', 'queryRoles', { name: 'All data' })).role[0]!.rid;
      await ok('sunmaker', 'assignRole', { uid: uid.get('maker_north_only')!, rid: allRid });
      expect(await plantOwners('maker_north_only')).toEqual(['owner_anna', 'owner_ben']);

      await ok('sunmaker', 'assignRole', { uid: uid.get('maker_north_only')!, rid: dataRid });
      expect(await plantOwners('maker_north_only')).toEqual(['owner_anna']);
      const benPlant = (await ok<PlantListDat>('owner_ben', 'queryPlants')).plant[0]!.pid;
      const missingPlant = await call('maker_north_only', 'queryPlantInfo', { plantid: 999999 });
      const foreignPlant = await call('maker_north_only', 'queryPlantInfo', { plantid: benPlant });
      expect(foreignPlant.err).toBe(260);
      expect(foreignPlant.err).toBe(missingPlant.err);
      expect(foreignPlant.desc).toBe(missingPlant.desc);
      // queryAccountInfo of another account needs account_manag, which this role lacks.
      expect((await call('maker_north_only', 'queryAccountInfo', { uid: uid.get('owner_anna')! })).err).toBe(11);
      // Accounts in reach follow the same data permission (the accounts scope).
      const tree = await s.ctx.repos.accounts.scopeOf({
        id: uid.get('maker_north_only')!,
        role: ROLE.DISTRIBUTOR,
        path: (await s.ctx.repos.accounts.findById(uid.get('maker_north_only')!))!.path,
        adminOf: uid.get('sunmaker')!,
      });
      const reached = await s.ctx.repos.accounts.idsInScope(tree);
      expect(reached).toContain(uid.get('owner_anna'));
      expect(reached).toContain(uid.get('dealer_north'));
      expect(reached).not.toContain(uid.get('owner_ben'));
      expect(reached).not.toContain(uid.get('dealer_south'));
    });
  });

  describe('control-field visibility', () => {
    const DEVCODE = 5121;

    it('lists every control of the protocol, visible by default; 353 for an unknown devcode', async () => {
      const dat = await ok<{ devcode: number; field: CtrlFieldForDist[] }>('sunmaker', 'queryDeviceCtrlFieldForDist', {
        devcode: DEVCODE,
      });
      expect(dat.field.length).toBeGreaterThanOrEqual(3);
      expect(dat.field.every((f) => f.visable && f.distributorPermissionFlag && f.name !== '')).toBe(true);
      expect((await err('sunmaker', 'queryDeviceCtrlFieldForDist', { devcode: 9999 })).err).toBe(353);
      expect((await err('owner_anna', 'queryDeviceCtrlFieldForDist', { devcode: DEVCODE })).err).toBe(11);
    });

    it('stores the flags per administrator and controlFieldRights applies them to the accounts below', async () => {
      const fields = (
        await ok<{ field: CtrlFieldForDist[] }>('sunmaker', 'queryDeviceCtrlFieldForDist', { devcode: DEVCODE })
      ).field;
      const [a, b] = [fields[0]!.id, fields[1]!.id];
      expect(
        (
          await err('sunmaker', 'editDeviceCtrlFieldForDist', {
            devcode: DEVCODE,
            id: `${a},no_such_control`,
            visable: 'false',
          })
        ).err,
      ).toBe(768);
      expect((await err('sunmaker', 'editDeviceCtrlFieldForDist', { devcode: DEVCODE, id: a })).err).toBe(7);
      await ok('sunmaker', 'editDeviceCtrlFieldForDist', { devcode: DEVCODE, id: a, visable: 'false' });
      await ok('sunmaker', 'editDeviceCtrlFieldForDist', {
        devcode: DEVCODE,
        id: b,
        distributorPermissionFlag: 'false',
      });
      const after = (
        await ok<{ field: CtrlFieldForDist[] }>('sunmaker', 'queryDeviceCtrlFieldForDist', { devcode: DEVCODE })
      ).field;
      expect(after.find((f) => f.id === a)).toMatchObject({ visable: false, distributorPermissionFlag: true });
      expect(after.find((f) => f.id === b)).toMatchObject({ visable: true, distributorPermissionFlag: false });
      // Per administrator: dealer_north's own settings are untouched.
      const north = (
        await ok<{ field: CtrlFieldForDist[] }>('dealer_north', 'queryDeviceCtrlFieldForDist', { devcode: DEVCODE })
      ).field;
      expect(north.every((f) => f.visable && f.distributorPermissionFlag)).toBe(true);

      const rights = async (usr: string) => {
        const row = (await s.ctx.repos.accounts.findById(uid.get(usr)!))!;
        const r = await s.ctx.services.controlFields.controlFieldRights(
          { accountId: row.id, role: row.role, path: row.path },
          DEVCODE,
        );
        return { a: r.visible.has(a), b: r.visible.has(b), hidden: [...r.hidden].sort() };
      };
      expect(await rights('sunmaker')).toEqual({ a: true, b: true, hidden: [] });
      expect(await rights('owner_anna')).toEqual({ a: false, b: true, hidden: [a] });
      expect(await rights('dealer_north')).toEqual({ a: true, b: false, hidden: [b] });
      expect(await rights('other_owner')).toEqual({ a: true, b: true, hidden: [] });
      // dealer_north hides b from its owners too: the most restrictive administrator wins.
      await ok('dealer_north', 'editDeviceCtrlFieldForDist', { devcode: DEVCODE, id: b, visable: 'false' });
      expect(await rights('owner_anna')).toEqual({ a: false, b: false, hidden: [a, b].sort() });
      await expect(
        s.ctx.services.controlFields.controlFieldRights({ accountId: 1, role: 0, path: '/1/' }, 9999),
      ).rejects.toMatchObject({ code: 353 });
    });
  });
});
