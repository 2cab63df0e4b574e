import { ROLE } from '@sunwatch/protocol';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import type { AccountRow } from '../accounts/accounts.repository.js';

/** The SQL of viewer (role 5) sub-accounts and their plants (`viewer_projects`). */
export class ViewersRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  /** Replaces the plants of a viewer. */
  async setPlants(viewerId: number, plantIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('viewer_projects').where('viewer_id', '=', viewerId).execute();
    if (plantIds.length > 0) {
      await this.db
        .insertInto('viewer_projects')
        .values(plantIds.map((project_id) => ({ viewer_id: viewerId, project_id })))
        .execute();
    }
  }

  /** The plants of each viewer, ordered by plant id. */
  async plantsOf(viewerIds: readonly number[]): Promise<Map<number, Array<{ id: number; name: string }>>> {
    const out = new Map<number, Array<{ id: number; name: string }>>();
    if (viewerIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('viewer_projects as vp')
      .innerJoin('projects as p', 'p.id', 'vp.project_id')
      .select(['vp.viewer_id', 'p.id', 'p.name'])
      .where('vp.viewer_id', 'in', [...viewerIds])
      .orderBy('p.id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.viewer_id) ?? [];
      list.push({ id: Number(r.id), name: r.name });
      out.set(r.viewer_id, list);
    }
    return out;
  }

  /** The viewers created under `parentId`, newest first; `usr` fuzzy. */
  async list(parentId: number, usr: string | undefined, page: number, pagesize: number): Promise<{ total: number; rows: AccountRow[] }> {
    let q = this.db.selectFrom('accounts').where('parent_id', '=', parentId).where('role', '=', ROLE.VIEWER);
    if (usr) q = q.where(sql<SqlBool>`lower(usr) like ${likePattern(usr)} escape '\\'`);
    const c = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(c.n);
    if (total === 0 || page * pagesize >= total) return { total, rows: [] };
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    return { total, rows };
  }

  /** Deletes a viewer; with its plants, sessions, remember tokens, known addresses and follows. */
  async delete(viewerId: number): Promise<void> {
    await this.db.deleteFrom('viewer_projects').where('viewer_id', '=', viewerId).execute();
    await this.db.deleteFrom('sessions').where('account_id', '=', viewerId).execute();
    await this.db.deleteFrom('remember_tokens').where('account_id', '=', viewerId).execute();
    await this.db.deleteFrom('known_addresses').where('account_id', '=', viewerId).execute();
    await this.db.deleteFrom('group_members').where('member_id', '=', viewerId).execute();
    await this.db.deleteFrom('device_follows').where('account_id', '=', viewerId).execute();
    await this.db.deleteFrom('accounts').where('id', '=', viewerId).execute();
  }
}
