import { describe, expect, it, vi } from 'vitest';
import type { Caller } from '../context.js';
import type { AccessRepository } from './access.repository.js';
import { AccessService } from './access.service.js';

/** Unit tests of the access rules with a fake repository and account tree (no database). */

const caller = (over: Partial<Caller> = {}): Caller => ({
  accountId: 7,
  usr: 'x',
  role: 0,
  path: '/1/7/',
  status: 0,
  adminOf: null,
  permissions: null,
  sessionId: 1,
  ...over,
});

function fakeRepo(visible: {
  plants?: number[];
  pns?: string[];
  devices?: number[];
  members?: number[];
  dataMembers?: number[] | null;
}) {
  const keep = <T>(ids: readonly T[], ok: readonly T[] = []) =>
    Promise.resolve(new Set(ids.filter((i) => ok.includes(i))));
  return {
    groupMembers: vi.fn(() => Promise.resolve(visible.members ?? [])),
    dataPermissionMembers: vi.fn(() => Promise.resolve(visible.dataMembers ?? null)),
    visiblePlantIds: vi.fn((_s: unknown, ids: readonly number[]) => keep(ids, visible.plants)),
    visiblePns: vi.fn((_s: unknown, ids: readonly string[]) => keep(ids, visible.pns)),
    visibleDeviceIds: vi.fn((_s: unknown, ids: readonly number[]) => keep(ids, visible.devices)),
  };
}
const tree = { scopeOf: vi.fn(() => Promise.resolve({ all: false as const, roots: ['/1/7/'] })) };

describe('AccessService', () => {
  it('checks many ids of one kind in one query and returns the visible ones', async () => {
    const repo = fakeRepo({ plants: [1, 3] });
    const access = new AccessService(repo as unknown as AccessRepository, tree);
    const ok = await access.checkAccess({ caller: caller(), permission: 'plant.read', ids: [1, 2, 3] });
    expect([...ok]).toEqual([1, 3]);
    expect(repo.visiblePlantIds).toHaveBeenCalledTimes(1);
  });

  it('refuses a foreign id with the code of a missing one: 260 plant, 257 datalogger (with its PN), 258 device', async () => {
    const access = new AccessService(
      fakeRepo({ plants: [1], pns: ['A'], devices: [9] }) as unknown as AccessRepository,
      tree,
    );
    const c = caller();
    await expect(access.requireAccess({ caller: c, permission: 'plant.read', ids: [1, 2] })).rejects.toMatchObject({
      code: 260,
    });
    await expect(
      access.requireAccess({ caller: c, permission: 'datalogger.read', ids: ['A', 'B', 'C'] }),
    ).rejects.toMatchObject({ code: 257, detail: 'B' });
    await expect(access.requireAccess({ caller: c, permission: 'device.read', ids: [8] })).rejects.toMatchObject({
      code: 258,
    });
    expect([...(await access.requireAccess({ caller: c, permission: 'device.read', ids: [9] }))]).toEqual([9]);
  });

  it('asks nothing for an empty list and reuses a scope the caller already resolved', async () => {
    const repo = fakeRepo({ plants: [1] });
    const accounts = { scopeOf: vi.fn() };
    const access = new AccessService(repo as unknown as AccessRepository, accounts);
    expect((await access.checkAccess({ caller: caller(), permission: 'plant.read', ids: [] })).size).toBe(0);
    await access.checkAccess({
      caller: caller(),
      permission: 'plant.read',
      ids: [1],
      scope: { kind: 'all', accountId: 7 },
    });
    expect(accounts.scopeOf).not.toHaveBeenCalled();
  });

  it('scopes: operator all, viewer its assigned plants, a group its members as admins', async () => {
    const access = new AccessService(fakeRepo({ members: [11, 12] }) as unknown as AccessRepository, tree);
    expect(await access.scopeOf(caller({ role: 15 }))).toEqual({ kind: 'all', accountId: 7 });
    expect(await access.scopeOf(caller({ role: 5 }))).toEqual({ kind: 'viewer', accountId: 7 });
    expect(await access.scopeOf(caller({ role: 3 }))).toEqual({
      kind: 'tree',
      accountId: 7,
      roots: ['/1/7/'],
      adminIds: [7, 11, 12],
    });
    expect(await access.scopeOf(caller({ role: 2, adminOf: 4 }))).toMatchObject({ adminIds: [7, 4] });
  });

  it("a sub-administrator with a data permission manages its groups' members' dataloggers, not its principal's", async () => {
    const access = new AccessService(fakeRepo({ dataMembers: [21, 22] }) as unknown as AccessRepository, tree);
    expect(await access.scopeOf(caller({ role: 2, adminOf: 4 }))).toMatchObject({ adminIds: [7, 21, 22] });
  });
});
