import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/db.js';
import type { EmailPushTable } from '../../db/schema-notifications.js';
import { currentDb } from '../../db/transaction.js';

export type EmailPushDb = Selectable<EmailPushTable>;

export interface EmailPushValues {
  email: string;
  alarmLevels: number;
  reportTypes: number;
  locale: string;
  enabled: boolean;
}

/** A subscription with its plants, as the notifier matches it against an alarm. */
export interface PushTarget {
  pushId: number;
  accountId: number;
  email: string;
  alarmLevels: number;
  locale: string;
  role: number;
  path: string;
  status: number;
  adminOf: number | null;
  permissions: string | null;
  projectId: number;
}

/** E-mail push subscriptions (`email_push`, `email_push_plants`). */
export class EmailPushRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async listOf(accountId: number, page: number, pagesize: number) {
    const total = Number(
      (
        await this.db
          .selectFrom('email_push')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', accountId)
          .executeTakeFirst()
      )?.n ?? 0,
    );
    const rows = await this.db
      .selectFrom('email_push')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .limit(pagesize)
      .offset(page * pagesize)
      .execute();
    const plants = await this.plantsOf(rows.map((r) => r.id));
    return { total, rows, plants };
  }

  /** Plants (id, name) of the subscriptions, by subscription id. */
  async plantsOf(pushIds: readonly number[]): Promise<Map<number, Array<{ pid: number; pname: string }>>> {
    const out = new Map<number, Array<{ pid: number; pname: string }>>();
    if (pushIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('email_push_plants as ep')
      .innerJoin('projects as p', 'p.id', 'ep.project_id')
      .select(['ep.push_id', 'p.id', 'p.name'])
      .where('ep.push_id', 'in', pushIds)
      .orderBy('p.id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.push_id) ?? [];
      list.push({ pid: r.id, pname: r.name });
      out.set(r.push_id, list);
    }
    return out;
  }

  find(accountId: number, id: number): Promise<EmailPushDb | undefined> {
    return this.db.selectFrom('email_push').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  async countOf(accountId: number): Promise<number> {
    const r = await this.db
      .selectFrom('email_push')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Another subscription of the account to the same address (case-insensitive). */
  async sameEmail(accountId: number, email: string, exceptId?: number): Promise<boolean> {
    let q = this.db
      .selectFrom('email_push')
      .select('id')
      .where('account_id', '=', accountId)
      .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(accountId: number, v: EmailPushValues, now: number): Promise<number> {
    const r = await this.db
      .insertInto('email_push')
      .values({
        account_id: accountId,
        email: v.email,
        alarm_levels: v.alarmLevels,
        report_types: v.reportTypes,
        locale: v.locale,
        enabled: v.enabled ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  async update(id: number, v: EmailPushValues, now: number): Promise<void> {
    await this.db
      .updateTable('email_push')
      .set({
        email: v.email,
        alarm_levels: v.alarmLevels,
        report_types: v.reportTypes,
        locale: v.locale,
        enabled: v.enabled ? 1 : 0,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  async setPlants(id: number, plantIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('email_push_plants').where('push_id', '=', id).execute();
    if (plantIds.length > 0) {
      await this.db
        .insertInto('email_push_plants')
        .values(plantIds.map((p) => ({ push_id: id, project_id: p })))
        .execute();
    }
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('email_push_plants').where('push_id', '=', id).execute();
    await this.db.deleteFrom('email_push').where('id', '=', id).execute();
  }

  /**
   * Enabled subscriptions of the given plants with their accounts (one row per subscription and
   * plant): the notifier filters them by alarm level and re-checks the account's access.
   */
  targetsOf(projectIds: readonly number[]): Promise<PushTarget[]> {
    if (projectIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('email_push_plants as ep')
      .innerJoin('email_push as e', 'e.id', 'ep.push_id')
      .innerJoin('accounts as a', 'a.id', 'e.account_id')
      .select([
        'e.id as pushId',
        'e.account_id as accountId',
        'e.email as email',
        'e.alarm_levels as alarmLevels',
        'e.locale as locale',
        'a.role as role',
        'a.path as path',
        'a.status as status',
        'a.admin_of as adminOf',
        'a.permissions as permissions',
        'ep.project_id as projectId',
      ])
      .where('ep.project_id', 'in', projectIds)
      .where('e.enabled', '=', 1)
      .where('e.alarm_levels', '!=', 0)
      .orderBy('e.id')
      .execute();
  }
}
