import { ROLE } from '@sunwatch/protocol';
import { CompiledQuery, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/db.js';
import { currentDb, DbHandle } from '../../db/transaction.js';
import { subtreeRange } from '../../db/dialect.js';
import type { AccountsTable } from '../../db/schema.js';
import { boundGroupMembers, dataPermissionMembers } from '../../access/access.repository.js';

export type AccountRow = Selectable<AccountsTable>;
export type NewAccountRow = Omit<Insertable<AccountsTable>, 'path'>;

/** Who is asking, as far as scoping is concerned. */
export interface ScopeSubject {
  id: number;
  role: number;
  path: string;
  adminOf: number | null;
}

/**
 * The accounts a caller may see or change: `all` for the platform operator, else the union of
 * subtrees given by their root paths (materialised path prefixes).
 */
export type Scope = { all: true } | { all: false; roots: string[] };

export class AccountsRepository {
  constructor(private readonly root: Db) {}

  /** The open transaction of this call if any (`DbHandle.transaction`), else the root database. */
  private get db(): Db {
    return currentDb(this.root);
  }

  findById(id: number): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByUsr(usr: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('usr', '=', usr).executeTakeFirst();
  }

  /** Another account holding this recovery phone (exact) or e-mail (case-insensitive), if any. */
  async contactHolder(field: 'mobile' | 'email', value: string, exceptId?: number): Promise<number | undefined> {
    let q = this.db
      .selectFrom('accounts')
      .select('id')
      .where((eb) => (field === 'email' ? eb(eb.fn('lower', ['email']), '=', value.toLowerCase()) : eb('mobile', '=', value)));
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    const row = await q.executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /** Inserts and sets the materialised path (`<parent path><id>/`) in one transaction (joins an open one). */
  async insert(row: NewAccountRow): Promise<AccountRow> {
    return new DbHandle(this.root).transaction(async (trx) => {
      let parentPath = '/';
      if (row.parent_id != null) {
        const parent = await trx
          .selectFrom('accounts')
          .select('path')
          .where('id', '=', row.parent_id)
          .executeTakeFirst();
        if (!parent) throw new Error(`Parent account ${row.parent_id} does not exist`);
        parentPath = parent.path;
      }
      const { id } = await trx
        .insertInto('accounts')
        .values({ ...row, path: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return trx
        .updateTable('accounts')
        .set({ path: `${parentPath}${id}/` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  async update(id: number, patch: Updateable<AccountsTable>): Promise<void> {
    await this.db.updateTable('accounts').set(patch).where('id', '=', id).execute();
  }

  /**
   * Puts `memberId` into the user group that group account `groupAccountId` is bound to, binding
   * it first to a new user group of its parent when it has none (migration 0007).
   */
  async addGroupMember(groupAccountId: number, memberId: number): Promise<void> {
    await new DbHandle(this.root).transaction(async (trx) => {
      const g = await trx
        .selectFrom('accounts')
        .select(['id', 'usr', 'parent_id', 'member_group_id', 'created_at'])
        .where('id', '=', groupAccountId)
        .executeTakeFirstOrThrow();
      let groupId = g.member_group_id;
      if (groupId == null) {
        ({ id: groupId } = await trx
          .insertInto('user_groups')
          .values({ admin_id: g.parent_id ?? g.id, name: g.usr, note: '', created_at: g.created_at, updated_at: g.created_at })
          .returning('id')
          .executeTakeFirstOrThrow());
        await trx.updateTable('accounts').set({ member_group_id: groupId }).where('id', '=', g.id).execute();
      }
      await trx.updateTable('accounts').set({ group_id: groupId }).where('id', '=', memberId).execute();
    });
  }

  /**
   * The one place that decides what part of the tenant tree a caller reaches:
   * - operator (15): everything;
   * - group account (3): its own subtree plus the subtrees of the members of its bound user group;
   * - sub-administrator (role 2 with `admin_of`): the subtree of the account it administers, or
   *   only the subtrees of the members of the user groups its custom role names (data permission);
   * - everyone else: its own subtree (itself and its descendants).
   */
  async scopeOf(caller: ScopeSubject): Promise<Scope> {
    if (caller.role === ROLE.OPERATOR) return { all: true };
    const roots = new Set<string>([caller.path]);
    if (caller.role === ROLE.GROUP) {
      for (const m of await boundGroupMembers(this.db, caller.id)) roots.add(m.path);
    }
    const dataPermission = caller.adminOf != null ? await dataPermissionMembers(this.db, caller.id) : null;
    if (dataPermission) {
      // A sub-administrator whose role sets a data permission: only those groups' members.
      for (const m of dataPermission) roots.add(m.path);
    } else if (caller.adminOf != null) {
      const target = await this.db
        .selectFrom('accounts')
        .select('path')
        .where('id', '=', caller.adminOf)
        .executeTakeFirst();
      if (target) roots.add(target.path);
    }
    return { all: false, roots: [...roots] };
  }

  /** The account with this id if it lies in the scope (one indexed query), else undefined. */
  findInScope(scope: Scope, id: number): Promise<AccountRow | undefined> {
    // Issue 16 (signed-action throughput): every signed call of an account screen runs this, so its
    // SQL is compiled once per shape (number of subtree roots) and only the values change per call.
    const roots = scope.all ? [] : scope.roots;
    const shape = scope.all ? -1 : roots.length;
    let compiled = this.scopeQueries.get(shape);
    if (!compiled) {
      compiled = compileScopeQuery(this.root, scope.all, roots.length);
      this.scopeQueries.set(shape, compiled);
    }
    const values = compiled.slots.map((slot) => {
      if (slot === 'id') return id;
      const r = subtreeRange(roots[slot.root]!);
      return slot.end === 'from' ? r.from : r.to;
    });
    return this.db
      .executeQuery<AccountRow>(CompiledQuery.raw(compiled.sql, values))
      .then((res) => res.rows[0]);
  }

  private readonly scopeQueries = new Map<number, ScopeQuery>();

  /** Ids of every account in the scope (for listing modules). */
  async idsInScope(scope: Scope): Promise<number[]> {
    let q = this.db.selectFrom('accounts').select('id');
    if (!scope.all) {
      const roots = scope.roots;
      q = q.where((eb) =>
        eb.or(
          roots.map((p) => {
            const r = subtreeRange(p);
            return eb.and([eb('path', '>=', r.from), eb('path', '<', r.to)]);
          }),
        ),
      );
    }
    return (await q.orderBy('id').execute()).map((r) => r.id);
  }
}

/** Where each parameter of a compiled scope query comes from: the account id, or one end of a root's range. */
type ScopeSlot = 'id' | { root: number; end: 'from' | 'to' };
interface ScopeQuery {
  sql: string;
  slots: ScopeSlot[];
}

/**
 * The SQL of `findInScope` for `rootCount` subtree roots (or the operator's whole platform), in the
 * database's own dialect, with the source of each parameter found by compiling it once over marker
 * values (so the order Kysely gives its parameters is read, not assumed).
 */
function compileScopeQuery(db: Db, all: boolean, rootCount: number): ScopeQuery {
  const marker = (i: number, end: 'from' | 'to') => `~scope-marker-${i}-${end}`;
  let q = db.selectFrom('accounts').selectAll().where('id', '=', -1);
  if (!all) {
    q = q.where((eb) =>
      eb.or(
        Array.from({ length: rootCount }, (_, i) =>
          eb.and([eb('path', '>=', marker(i, 'from')), eb('path', '<', marker(i, 'to'))]),
        ),
      ),
    );
  }
  const { sql, parameters } = q.compile();
  const slots = parameters.map((value): ScopeSlot => {
    if (value === -1) return 'id';
    const m = /^~scope-marker-(\d+)-(from|to)$/.exec(String(value));
    if (!m) throw new Error(`findInScope: unexpected parameter ${String(value)}`);
    return { root: Number(m[1]), end: m[2] as 'from' | 'to' };
  });
  return { sql, slots };
}
