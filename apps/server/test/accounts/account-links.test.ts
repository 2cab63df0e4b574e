import { rc4EncryptHex, sha1Hex, type AccountInfoDat, type AccountListDat, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';

/**
 * Account management over the real custom roles and user groups (the roles module's
 * `RoleGroupLinks`, wired in create-context.ts): sub-administrators get a role's function points,
 * group accounts are bound to a user group, lists name roles and groups.
 */
describe.each(engines)('account management with real roles and groups ($name)', (engine) => {
  let s: TestServer;
  let dealer: AuthDat;
  let south: AuthDat;
  const pwd = (a: AuthDat, p: string) => ({ pwd: rc4EncryptHex(a.secret, sha1Hex(p)), pwdtext: rc4EncryptHex(a.secret, p) });

  beforeAll(async () => {
    s = await startTestServer(engine);
    dealer = (await s.login('dealer_north', 'Dealer_2026')).dat!;
    south = (await s.login('dealer_south', 'Dealer_2026')).dat!;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a sub-administrator made with a custom role holds exactly its function points, in menus and in checks', async () => {
    const role = await s.call<{ rid: number }>(dealer, 'addRole', {
      name: 'Links account clerk',
      functions: 'account_manag,account_list,account_add',
    });
    expect(role.err, JSON.stringify(role)).toBe(0);
    const made = await s.call<{ uid: number }>(dealer, 'addSubAdmin', { usr: 'links_clerk', rid: role.dat!.rid, ...pwd(dealer, 'Clerk_2026x') });
    expect(made.err, JSON.stringify(made)).toBe(0);

    const clerk = (await s.login('links_clerk', 'Clerk_2026x')).dat!;
    const info = await s.call<AccountInfoDat>(clerk, 'queryAccountInfo');
    const modules = Object.fromEntries(info.dat!.permission!.map((p) => [p.action, p.isCheck]));
    expect(modules).toMatchObject({ account_manag: true, device_manag: false, overview: false });
    const buttons = info.dat!.permission!.find((p) => p.action === 'account_manag')!.buttons;
    expect(buttons.filter((b) => b.isCheck).map((b) => b.action)).toEqual(['account_add']);

    expect((await s.call(clerk, 'webQueryUsrEs', { pagesize: 5 })).err).toBe(0);
    expect((await s.call(clerk, 'webQueryPlants', { pagesize: 5 })).err).toBe(11);
    // Module granted, function point not: delete is refused.
    const victim = await s.call<{ uid: number }>(clerk, 'addPlantOwner', { usr: 'links_owner0', ...pwd(clerk, 'Owner_2026x') });
    expect(victim.err, JSON.stringify(victim)).toBe(0);
    expect((await s.call(clerk, 'delAccount', { uid: victim.dat!.uid })).err).toBe(11);

    const list = await s.call<AccountListDat>(dealer, 'webQueryUsrEs', { usr: 'links_clerk' });
    expect(list.dat!.account).toEqual([expect.objectContaining({ usr: 'links_clerk', rid: role.dat!.rid, roleName: 'Links account clerk', subAdmin: true })]);
  });

  it('a group account is bound to one user group: it sees its members, a second one is refused (13), a foreign group is 369', async () => {
    const group = await s.call<{ groupid: number }>(dealer, 'addUsrGroup', { name: 'Links hotels', note: 'n' });
    expect(group.err, JSON.stringify(group)).toBe(0);
    const groupid = group.dat!.groupid;
    const owner = await s.call<{ uid: number }>(dealer, 'addPlantOwner', { usr: 'links_owner1', groupid, ...pwd(dealer, 'Owner_2026x') });
    expect(owner.err, JSON.stringify(owner)).toBe(0);

    const ga = await s.call<{ uid: number }>(dealer, 'addGroupAccount', { usr: 'links_group', groupid, ...pwd(dealer, 'Group_2026x') });
    expect(ga.err, JSON.stringify(ga)).toBe(0);
    const second = await s.call(dealer, 'addGroupAccount', { usr: 'links_group2', groupid, ...pwd(dealer, 'Group_2026x') });
    expect(second.err).toBe(13);
    expect((await s.call(south, 'addGroupAccount', { usr: 'links_group3', groupid, ...pwd(south, 'Group_2026x') })).err).toBe(369);

    const rows = await s.call<AccountListDat>(dealer, 'webQueryUsrEs', { groupid, pagesize: 50 });
    expect(rows.dat!.account.map((r) => [r.usr, r.group])).toEqual([['links_owner1', 'Links hotels']]);

    const groupAccount = (await s.login('links_group', 'Group_2026x')).dat!;
    const seen = await s.call<AccountListDat>(groupAccount, 'webQueryUsrEs', { pagesize: 50 });
    expect(seen.err).toBe(0);
    expect(seen.dat!.account.map((r) => r.usr)).toContain('links_owner1');
    expect(seen.dat!.account.map((r) => r.usr)).not.toContain('owner_ben');
  });
});
