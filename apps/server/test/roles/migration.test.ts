import { Migrator } from 'kysely';
import { ROLE } from '@sunwatch/protocol';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/db.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { AccountsRepository } from '../../src/modules/accounts/accounts.repository.js';
import { AccountsService } from '../../src/modules/accounts/accounts.service.js';
import { SessionsRepository } from '../../src/modules/auth/sessions.repository.js';
import { Keyring } from '../../src/security/keyring.js';

/** Migration 0007 moves the legacy group_members rows into user groups bound to the group accounts. */
describe.each(engines)('migration 0007-roles ($name)', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void> = () => Promise.resolve();
  let dataDir = '';
  let repo: AccountsRepository;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(`${os.tmpdir()}/sunwatch-mig-`);
    const database = await engine.createDatabase(dataDir);
    drop = database.drop;
    handle = openDatabase({ databaseUrl: database.databaseUrl, sqlitePath: database.sqlitePath });
    const migrator = new Migrator({ db: handle.db, provider: migrationProvider(handle.dialect) });
    const before = await migrator.migrateTo('0005-audit');
    expect(before.error).toBeUndefined();
    repo = new AccountsRepository(handle.db);
    const svc = new AccountsService(
      repo,
      new SessionsRepository(handle.db),
      new Keyring(Buffer.alloc(32, 5)),
      () => 1_700_000_000_000,
    );
    const make = async (usr: string, role: number, parent?: string) => {
      ids[usr] = (await svc.create({ usr, password: 'x', role: role as 0, parentId: parent ? ids[parent] : null })).id;
    };
    await make('op', ROLE.OPERATOR);
    await make('maker', ROLE.MANUFACTURER, 'op');
    await make('dist', ROLE.DISTRIBUTOR, 'maker');
    await make('owner', ROLE.OWNER, 'dist');
    await make('owner2', ROLE.OWNER, 'maker');
    await make('group', ROLE.GROUP, 'maker');
    await handle.db
      .insertInto('group_members')
      .values([
        { group_id: ids.group!, member_id: ids.dist! },
        { group_id: ids.group!, member_id: ids.owner2! },
      ])
      .execute();
    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();
  });
  afterAll(async () => {
    await handle?.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('binds each group account to a new user group of its parent holding the old members', async () => {
    const group = (await repo.findById(ids.group!))!;
    expect(group.member_group_id).not.toBeNull();
    const ug = await handle.db
      .selectFrom('user_groups')
      .selectAll()
      .where('id', '=', group.member_group_id!)
      .executeTakeFirstOrThrow();
    expect(ug.admin_id).toBe(ids.maker);
    expect((await repo.findById(ids.dist!))!.group_id).toBe(ug.id);
    expect((await repo.findById(ids.owner2!))!.group_id).toBe(ug.id);
    expect((await repo.findById(ids.owner!))!.group_id).toBeNull();
    expect(await handle.db.selectFrom('group_members').selectAll().execute()).toEqual([]);
  });

  it('the group account keeps seeing its members and their subtrees', async () => {
    const group = (await repo.findById(ids.group!))!;
    const scope = await repo.scopeOf({ id: group.id, role: group.role, path: group.path, adminOf: null });
    const seen = await repo.idsInScope(scope);
    expect(seen.sort((a, b) => a - b)).toEqual([ids.dist!, ids.owner!, ids.owner2!, ids.group!].sort((a, b) => a - b));
  });
});
