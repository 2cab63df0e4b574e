import { ACCOUNT_STATUS } from '@sunwatch/protocol';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import type { Database } from '../../db/schema.js';
import { subtreeRange } from '../../db/dialect.js';
import { currentDb } from '../../db/transaction.js';
import type { AccountRow, Scope } from './accounts.repository.js';

/** Filters of the account lists (webQueryUsrEs, adminQueryUsrAccount, queryDists, queryPlantOwners). */
export interface AccountListFilter {
  scope: Scope;
  /** Never listed: the caller itself and (sub-administrators) the account it administers. */
  exclude: number[];
  /** Only this subtree (querySubUsrPlantOwners `uid`). */
  within?: string;
  /** Not the direct subordinates of this account (querySubUsrPlantOwners without `uid`). */
  notChildOf?: number;
  roles?: number[];
  /** Role 2 rows that are sub-administrators: true only them, false none of them. */
  subAdmin?: boolean;
  /** Fuzzy username (and nickname). */
  usr?: string;
  /** Fuzzy search over username, nickname, phone, e-mail and held datalogger PNs (adminQueryUsrAccount). */
  search?: { text: string; contact: boolean };
  enable?: boolean;
  /** Has signed in at least once. */
  active?: boolean;
  /** null = ungrouped. */
  groupId?: number | null;
  /** Dealer code of the account or of its superior. */
  dealerCode?: string;
  order: 'ascUsr' | 'descUsr' | 'newest';
  page: number;
  pageSize: number;
}

export interface AccountListItem extends AccountRow {
  parent_usr: string | null;
  collectors: number;
  devices: number;
  plants: number;
}

type Eb = ExpressionBuilder<Database, 'accounts'>;

/** `%text%` for LIKE with the wildcards of `text` escaped (escape character `\`). */
function likeAny(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function inRoots(eb: Eb, roots: readonly string[], column = 'accounts.path'): Expression<SqlBool> {
  if (roots.length === 0) return sql<SqlBool>`1 = 0`;
  return eb.or(
    roots.map((p) => {
      const r = subtreeRange(p);
      return eb.and([eb(sql.ref(column), '>=', r.from), eb(sql.ref(column), '<', r.to)]);
    }),
  );
}

/**
 * The SQL of account management: lists with their counts in one query, deletion with everything
 * that hangs on an account, moving subtrees. Every method runs in the call's transaction if any.
 */
export class AccountAdminRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /**
   * One page of accounts with the counts of dataloggers, devices and plants each holds, in ONE
   * query: the counts come from grouped sub-queries joined by account id (no query per row).
   * An account holds the dataloggers it owns (owner), manages (distributor, `admin_id`) or made
   * (manufacturer, `vendor_id`), the devices on them, and its own plants plus the plants of those
   * dataloggers.
   */
  async list(f: AccountListFilter): Promise<{ total: number; rows: AccountListItem[] }> {
    const where = (eb: Eb): Expression<SqlBool> => {
      const c: Expression<SqlBool>[] = [];
      if (!f.scope.all) c.push(inRoots(eb, f.scope.roots));
      if (f.within) c.push(inRoots(eb, [f.within]));
      if (f.notChildOf !== undefined) {
        c.push(eb.or([eb('accounts.parent_id', 'is', null), eb('accounts.parent_id', '!=', f.notChildOf)]));
      }
      if (f.exclude.length) c.push(eb('accounts.id', 'not in', f.exclude));
      if (f.roles) c.push(eb('accounts.role', 'in', f.roles.length ? f.roles : [-1]));
      if (f.subAdmin === true) c.push(eb('accounts.admin_of', 'is not', null));
      if (f.subAdmin === false) c.push(eb('accounts.admin_of', 'is', null));
      if (f.usr) {
        const p = likeAny(f.usr);
        c.push(eb.or([sql<SqlBool>`lower(accounts.usr) like lower(${p}) escape '\\'`, sql<SqlBool>`lower(accounts.qname) like lower(${p}) escape '\\'`]));
      }
      if (f.search) {
        const p = likeAny(f.search.text);
        const alts: Expression<SqlBool>[] = [
          sql<SqlBool>`lower(accounts.usr) like lower(${p}) escape '\\'`,
          sql<SqlBool>`lower(accounts.qname) like lower(${p}) escape '\\'`,
          sql<SqlBool>`exists (select 1 from dataloggers sd where lower(sd.pn) like lower(${p}) escape '\\' and (sd.owner_id = accounts.id or sd.admin_id = accounts.id or sd.vendor_id = accounts.id))`,
        ];
        if (f.search.contact) {
          alts.push(sql<SqlBool>`lower(accounts.mobile) like lower(${p}) escape '\\'`, sql<SqlBool>`lower(accounts.email) like lower(${p}) escape '\\'`);
        }
        c.push(eb.or(alts));
      }
      if (f.enable === true) c.push(eb('accounts.status', 'in', [ACCOUNT_STATUS.ENABLED, ACCOUNT_STATUS.CANCELLING]));
      if (f.enable === false) c.push(eb('accounts.status', '=', ACCOUNT_STATUS.DISABLED));
      if (f.active === true) c.push(eb('accounts.last_login_at', 'is not', null));
      if (f.active === false) c.push(eb('accounts.last_login_at', 'is', null));
      if (f.groupId === null) c.push(eb('accounts.group_id', 'is', null));
      else if (f.groupId !== undefined) c.push(eb('accounts.group_id', '=', f.groupId));
      if (f.dealerCode) {
        const code = `%,${f.dealerCode.toUpperCase().replace(/[\\%_]/g, (x) => `\\${x}`)},%`;
        c.push(
          sql<SqlBool>`(',' || coalesce(accounts.dealer_code, '') || ',' like ${code} escape '\\' or exists (select 1 from accounts dp where dp.id = accounts.parent_id and ',' || coalesce(dp.dealer_code, '') || ',' like ${code} escape '\\'))`,
        );
      }
      return eb.and(c);
    };

    const { n } = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(where)
      .executeTakeFirstOrThrow();
    const total = Number(n);
    if (total === 0) return { total, rows: [] };

    const db = this.db;
    const held = () =>
      db
        .selectFrom('dataloggers')
        .select(['owner_id as aid', 'id as did', 'project_id as pid'])
        .where('owner_id', 'is not', null)
        .unionAll(
          db.selectFrom('dataloggers').select(['admin_id as aid', 'id as did', 'project_id as pid']).where('admin_id', 'is not', null),
        )
        .unionAll(
          db.selectFrom('dataloggers').select(['vendor_id as aid', 'id as did', 'project_id as pid']).where('vendor_id', 'is not', null),
        );
    const collectorCounts = db
      .selectFrom(held().as('h'))
      .select(['h.aid', sql<number>`count(distinct h.did)`.as('n')])
      .groupBy('h.aid');
    const deviceCounts = db
      .selectFrom(held().as('h'))
      .innerJoin('devices as dv', 'dv.datalogger_id', 'h.did')
      .select(['h.aid', sql<number>`count(distinct dv.id)`.as('n')])
      .groupBy('h.aid');
    const plantCounts = db
      .selectFrom(
        db
          .selectFrom('projects')
          .select(['owner_id as aid', 'id as pid'])
          .unionAll(db.selectFrom(held().as('h2')).select([sql<number>`h2.aid`.as('aid'), sql<number>`h2.pid`.as('pid')]).where('h2.pid', 'is not', null))
          .as('x'),
      )
      .select(['x.aid', sql<number>`count(distinct x.pid)`.as('n')])
      .groupBy('x.aid');

    let q = db
      .selectFrom('accounts')
      .leftJoin('accounts as parent', 'parent.id', 'accounts.parent_id')
      .leftJoin(collectorCounts.as('cc'), 'cc.aid', 'accounts.id')
      .leftJoin(deviceCounts.as('dc'), 'dc.aid', 'accounts.id')
      .leftJoin(plantCounts.as('pc'), 'pc.aid', 'accounts.id')
      .selectAll('accounts')
      .select([
        'parent.usr as parent_usr',
        sql<number>`coalesce(cc.n, 0)`.as('collectors'),
        sql<number>`coalesce(dc.n, 0)`.as('devices'),
        sql<number>`coalesce(pc.n, 0)`.as('plants'),
      ])
      .where(where as never);
    if (f.order === 'ascUsr') q = q.orderBy('accounts.usr', 'asc').orderBy('accounts.id', 'asc');
    else if (f.order === 'descUsr') q = q.orderBy('accounts.usr', 'desc').orderBy('accounts.id', 'desc');
    else q = q.orderBy('accounts.created_at', 'desc').orderBy('accounts.id', 'desc');
    const rows = (await q
      .limit(f.pageSize)
      .offset(f.page * f.pageSize)
      .execute()) as unknown as AccountListItem[];
    return {
      total,
      rows: rows.map((r) => ({ ...r, collectors: Number(r.collectors), devices: Number(r.devices), plants: Number(r.plants) })),
    };
  }

  /** The accounts of these ids that lie in the scope (one query). */
  async findManyInScope(scope: Scope, ids: readonly number[]): Promise<AccountRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', 'in', [...ids])
      .where((eb) => (scope.all ? sql<SqlBool>`1 = 1` : inRoots(eb, scope.roots)))
      .execute();
  }

  async findManyByIds(ids: readonly number[]): Promise<AccountRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('accounts').selectAll().where('id', 'in', [...ids]).execute();
  }

  async usrTaken(usr: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select('id')
      .where(sql<SqlBool>`lower(usr) = lower(${usr})`)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Dataloggers the account holds: owned, managed, made, or on its plants. */
  async heldDataloggerCount(accountId: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('dataloggers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) =>
        eb.or([
          eb('owner_id', '=', accountId),
          eb('admin_id', '=', accountId),
          eb('vendor_id', '=', accountId),
          eb('project_id', 'in', eb.selectFrom('projects').select('id').where('owner_id', '=', accountId)),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Accounts directly below (parent) or administered by (sub-administrators) this one. */
  async subordinateCount(accountId: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => eb.or([eb('parent_id', '=', accountId), eb('admin_of', '=', accountId)]))
      .where('id', '!=', accountId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /**
   * Deletes an account that holds no dataloggers and has no subordinates (checked by the caller):
   * its sessions, remember-me tokens, group links, viewer links and plants (without dataloggers),
   * then the row. Accounts it created keep their rows (`created_by` is cleared).
   */
  async deleteAccount(accountId: number): Promise<{ plants: number[] }> {
    const db = this.db;
    const plants = (await db.selectFrom('projects').select('id').where('owner_id', '=', accountId).execute()).map((p) => p.id);
    await db.deleteFrom('sessions').where('account_id', '=', accountId).execute();
    await db.deleteFrom('remember_tokens').where('account_id', '=', accountId).execute();
    await db.deleteFrom('known_addresses').where('account_id', '=', accountId).execute();
    await db
      .deleteFrom('group_members')
      .where((eb) => eb.or([eb('group_id', '=', accountId), eb('member_id', '=', accountId)]))
      .execute();
    await db.deleteFrom('viewer_projects').where('viewer_id', '=', accountId).execute();
    await db.deleteFrom('device_follows').where('account_id', '=', accountId).execute();
    if (plants.length) {
      await db.deleteFrom('viewer_projects').where('project_id', 'in', plants).execute();
      await db.updateTable('devices').set({ project_id: null }).where('project_id', 'in', plants).execute();
      await db.deleteFrom('projects').where('id', 'in', plants).execute();
    }
    await db.updateTable('accounts').set({ created_by: null }).where('created_by', '=', accountId).execute();
    await db.deleteFrom('accounts').where('id', '=', accountId).execute();
    return { plants };
  }

  /**
   * Moves the subtree rooted at `accountId` under `parentPath`: its parent and the materialised
   * path of every account in it (one UPDATE, in the call's transaction).
   */
  async moveSubtree(accountId: number, oldPath: string, newParentId: number, newParentPath: string): Promise<void> {
    const newPath = `${newParentPath}${accountId}/`;
    const r = subtreeRange(oldPath);
    await this.db.updateTable('accounts').set({ parent_id: newParentId }).where('id', '=', accountId).execute();
    await this.db
      .updateTable('accounts')
      .set({ path: sql<string>`${newPath} || substr(path, ${oldPath.length + 1})` })
      .where('path', '>=', r.from)
      .where('path', '<', r.to)
      .execute();
  }

  /** Manufacturers (vendor_id) of the dataloggers an owner holds (owned or on its plants). */
  async vendorsOfOwner(ownerId: number): Promise<(number | null)[]> {
    const rows = await this.db
      .selectFrom('dataloggers')
      .select('vendor_id')
      .distinct()
      .where((eb) =>
        eb.or([
          eb('owner_id', '=', ownerId),
          eb('project_id', 'in', eb.selectFrom('projects').select('id').where('owner_id', '=', ownerId)),
        ]),
      )
      .execute();
    return rows.map((r) => r.vendor_id);
  }

  /** Hands an owner's dataloggers to a new managing distributor (null: managed by nobody below the manufacturer). */
  async setOwnerDataloggersAdmin(ownerId: number, adminId: number | null): Promise<number> {
    const res = await this.db
      .updateTable('dataloggers')
      .set({ admin_id: adminId })
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
