import { ROLE } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/db.js';
import { Keyring } from '../../security/keyring.js';
import { SessionsRepository } from '../auth/sessions.repository.js';
import { AccountsRepository, type ScopeSubject } from './accounts.repository.js';
import { AccountsService, scopeSubject } from './accounts.service.js';

describe('AccountsRepository.scopeOf', () => {
  let handle: DatabaseHandle;
  let repo: AccountsRepository;
  const ids: Record<string, number> = {};
  const subject = async (usr: string): Promise<ScopeSubject> => scopeSubject((await repo.findByUsr(usr))!);

  beforeAll(async () => {
    handle = openDatabase({ sqlitePath: ':memory:' });
    await migrateToLatest(handle);
    repo = new AccountsRepository(handle.db);
    const svc = new AccountsService(
      repo,
      new SessionsRepository(handle.db),
      new Keyring(Buffer.alloc(32, 3)),
      () => 1_700_000_000_000,
    );
    const make = async (usr: string, role: number, parent?: string, adminOf?: string) => {
      const row = await svc.create({
        usr,
        password: 'x',
        role: role as 0,
        parentId: parent ? ids[parent] : null,
        adminOf: adminOf ? ids[adminOf] : null,
      });
      ids[usr] = row.id;
    };
    await make('op', ROLE.OPERATOR);
    await make('maker', ROLE.MANUFACTURER, 'op');
    await make('maker2', ROLE.MANUFACTURER, 'op');
    await make('dist', ROLE.DISTRIBUTOR, 'maker');
    await make('dist2', ROLE.DISTRIBUTOR, 'maker');
    await make('other', ROLE.DISTRIBUTOR, 'maker2');
    await make('sub', ROLE.DISTRIBUTOR, 'dist', 'dist');
    await make('owner', ROLE.OWNER, 'dist');
    await make('owner2', ROLE.OWNER, 'dist2');
    await make('viewer', ROLE.VIEWER, 'owner');
    await make('group', ROLE.GROUP, 'maker');
    await repo.addGroupMember(ids.group!, ids.dist2!);
    // Make ids 10+ exist so that '/1/4/' vs '/1/40/' style prefixes are exercised.
    for (let i = 0; i < 30; i++) await make(`filler${i}`, ROLE.OWNER, 'maker2');
    await make('deep', ROLE.OWNER, 'other');
  });
  afterAll(async () => {
    await handle.close();
  });

  const visible = async (caller: string) => {
    const scope = await repo.scopeOf(await subject(caller));
    const all = await repo.idsInScope(scope);
    const names = Object.entries(ids)
      .filter(([, id]) => all.includes(id))
      .map(([n]) => n)
      .filter((n) => !n.startsWith('filler'));
    return names.sort();
  };

  it('stores materialised paths', async () => {
    expect((await repo.findByUsr('viewer'))!.path).toBe(
      `/${ids.op}/${ids.maker}/${ids.dist}/${ids.owner}/${ids.viewer}/`,
    );
  });

  it('gives the operator everything', async () => {
    expect(await repo.scopeOf(await subject('op'))).toEqual({ all: true });
  });

  it('limits everyone else to their subtree, groups to members, sub-admins to their principal', async () => {
    expect(await visible('maker')).toEqual(['dist', 'dist2', 'group', 'maker', 'owner', 'owner2', 'sub', 'viewer']);
    expect(await visible('dist')).toEqual(['dist', 'owner', 'sub', 'viewer']);
    expect(await visible('owner')).toEqual(['owner', 'viewer']);
    expect(await visible('viewer')).toEqual(['viewer']);
    expect(await visible('group')).toEqual(['dist2', 'group', 'owner2']);
    expect(await visible('sub')).toEqual(['dist', 'owner', 'sub', 'viewer']);
    expect(await visible('other')).toEqual(['deep', 'other']);
  });

  it('findInScope returns nothing for another tenant', async () => {
    const scope = await repo.scopeOf(await subject('dist'));
    expect(await repo.findInScope(scope, ids.owner!)).toBeDefined();
    expect(await repo.findInScope(scope, ids.owner2!)).toBeUndefined();
    expect(await repo.findInScope(scope, ids.maker!)).toBeUndefined();
  });

  it('findInScope agrees with idsInScope for every caller shape (operator, one root, several roots)', async () => {
    // The compiled-once query (issue 16) must keep each root's range: run the same account ids
    // through two different root counts and the operator's whole platform, in turn, twice.
    for (let round = 0; round < 2; round++) {
      for (const caller of ['op', 'group', 'dist', 'sub', 'other', 'viewer']) {
        const scope = await repo.scopeOf(await subject(caller));
        const inScope = new Set(await repo.idsInScope(scope));
        for (const [name, id] of Object.entries(ids)) {
          expect(Boolean(await repo.findInScope(scope, id)), `${caller} → ${name}`).toBe(inScope.has(id));
        }
      }
    }
  });
});
