import crypto from 'node:crypto';
import { sql } from 'kysely';
import { ACCOUNT_STATUS, ROLE } from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import { callerHasPermission, withBoundRole } from '../../access/permissions.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { Engine } from '../../db/dialect.js';
import type { DbHandle } from '../../db/transaction.js';
import { currentDb } from '../../db/transaction.js';
import { permissionSet } from '../accounts/accounts.service.js';
import { renderAlarmMail, type AlarmEvent } from './alarm-mail.js';
import type { EmailPushRepository, PushTarget } from './email-push.repository.js';
import type { MailQueueRepository, NewMail } from './mail-queue.repository.js';
import type { NotificationsConfig } from './notifications.config.js';

/** An alarm as the suppression port sees it (the fields of spec §3 "Alarm" the rules match). */
export interface NotifiableAlarm {
  id: number;
  level: number;
  code: number;
  description: string;
  deviceId: number | null;
  devcode: number | null;
  devtype: number | null;
  sn: string;
  pn: string;
  plantId: number;
  /** The plant's timezone, seconds east of UTC (a rule's time slot is local). */
  timezone: number;
  startedAt: number;
  endedAt: number | null;
}

/**
 * The port to the alarm filter rules (issue 11, built by s21-al as `alarmRuleMatches`): true when
 * a rule says this alarm is not to be mailed to this subscriber. Default: nothing suppressed.
 */
export type AlarmSuppression = (
  alarm: NotifiableAlarm,
  subscriber: { accountId: number; pushId: number },
  at: number,
) => Promise<boolean>;

export const CURSOR = 'alarm-raise';
/** Alarms read per pass (a run loops until it has caught up). */
const BATCH = 5000;

interface AlarmRow {
  id: number;
  level: number;
  code: number;
  description: string;
  device_id: number | null;
  started_at: number;
  ended_at: number | null;
  devcode: number | null;
  devtype: number | null;
  alias: string | null;
  sn: string | null;
  pn: string;
  project_id: number | null;
  plant_name: string | null;
  tz: number | null;
}

export interface AlarmNotifierDeps {
  db: Db;
  dbh: DbHandle;
  pushes: EmailPushRepository;
  queue: MailQueueRepository;
  access: AccessService;
  config: NotificationsConfig;
  now: () => number;
  suppressed: AlarmSuppression;
  /** False without SMTP_URL: mails go to the outbox. */
  sending: () => boolean;
  /** The database engine: on PostgreSQL the raised alarms are read up to a committed horizon (see `horizon`). */
  engine?: Engine;
}

/**
 * Turns alarm changes into mails, off the ingest path: each run reads the alarms newer than a
 * durable cursor (raised) and the announced alarms that have ended since (cleared), matches them
 * to the enabled subscriptions of their plant and alarm type, re-checks that each subscriber may
 * still see the plant, asks the suppression port, and writes ONE mail per subscription with all
 * its events of the run (a storm of a thousand alarms is one digest), in the subscriber's
 * language. Cursor, mails and the list of alarms awaiting their end commit in one transaction,
 * guarded by the cursor's previous value, so a crash or a second instance never mails twice.
 */
export class AlarmNotifier {
  private suppressed: AlarmSuppression;

  constructor(private readonly d: AlarmNotifierDeps) {
    this.suppressed = d.suppressed;
  }

  /** Connects the alarm filter rules (the port's implementation) after construction. */
  useSuppression(port: AlarmSuppression): void {
    this.suppressed = port;
  }

  private get db(): Db {
    return currentDb(this.d.db);
  }

  async runOnce(): Promise<{ events: number; mails: number }> {
    let events = 0;
    let mails = 0;
    for (let pass = 0; pass < 1000; pass++) {
      const r = await this.pass();
      events += r.events;
      mails += r.mails;
      if (!r.more) break;
    }
    return { events, mails };
  }

  private async cursor(): Promise<number> {
    const row = await this.db.selectFrom('notification_cursors').select('value').where('name', '=', CURSOR).executeTakeFirst();
    if (row) return Number(row.value);
    await sql`insert into notification_cursors (name, value) select ${CURSOR}, coalesce(max(id), 0) from alarms`.execute(this.db);
    return this.cursor();
  }

  /**
   * PostgreSQL: the newest alarm id below which no insert is still uncommitted. Alarm ids come from
   * a sequence, so with several writers (ingest batches of two instances, the offline job) id 11 can
   * commit before id 10; a cursor moved to 11 would skip 10 for good (an alarm never mailed). A
   * SHARE lock on `alarms` waits for the transactions writing it now (ingest batches take ROW
   * EXCLUSIVE on it) and holds new ones off for the one `max(id)` read: every id up to that max is
   * committed or gone. SQLite has one writer: ids commit in order, no horizon needed.
   */
  private async horizon(): Promise<number | undefined> {
    if (this.d.engine !== 'postgres') return undefined;
    return this.d.dbh.transaction(async () => {
      await sql`lock table alarms in share mode`.execute(this.db);
      const r = await sql<{ id: number | string | null }>`select max(id) as id from alarms`.execute(this.db);
      return Number(r.rows[0]?.id ?? 0);
    });
  }

  private alarmQuery() {
    return this.db
      .selectFrom('alarms as a')
      .innerJoin('dataloggers as dl', 'dl.id', 'a.datalogger_id')
      .leftJoin('devices as dv', 'dv.id', 'a.device_id')
      .leftJoin('projects as p', (j) => j.on(sql<boolean>`p.id = coalesce(dv.project_id, dl.project_id)`))
      .select([
        'a.id',
        'a.level',
        'a.code',
        'a.description',
        'a.device_id',
        'a.started_at',
        'a.ended_at',
        'dv.devcode',
        'dv.devtype',
        'dv.alias',
        'dv.sn',
        'dl.pn',
        'p.id as project_id',
        'p.name as plant_name',
        'p.tz_offset as tz',
      ]);
  }

  private async pass(): Promise<{ events: number; mails: number; more: boolean }> {
    const now = this.d.now();
    const cursor = await this.cursor();
    const horizon = await this.horizon();
    let raisedQuery = this.alarmQuery().where('a.id', '>', cursor);
    if (horizon !== undefined) raisedQuery = raisedQuery.where('a.id', '<=', horizon);
    const raised = (await raisedQuery.orderBy('a.id').limit(BATCH).execute()) as AlarmRow[];
    const ended = (await this.alarmQuery()
      .innerJoin('alarm_notices as n', 'n.alarm_id', 'a.id')
      .where('a.ended_at', 'is not', null)
      .orderBy('a.id')
      .limit(BATCH)
      .execute()) as AlarmRow[];
    const newCursor = raised.length > 0 ? Number(raised.at(-1)!.id) : cursor;

    const events: AlarmEvent[] = [];
    const alarms = new Map<AlarmEvent, NotifiableAlarm>();
    const add = (row: AlarmRow, kind: AlarmEvent['kind']) => {
      if (row.project_id === null) return; // a datalogger without a plant: no subscription can name it
      const e: AlarmEvent = {
        kind,
        alarmId: Number(row.id),
        level: row.level,
        code: row.code,
        description: row.description,
        devcode: row.devcode,
        devtype: row.devtype,
        device: row.device_id === null ? '' : row.alias || row.sn || '',
        sn: row.sn ?? '',
        pn: row.pn,
        plantId: row.project_id,
        plantName: row.plant_name ?? '',
        tz: Number(row.tz ?? 0),
        startedAt: Number(row.started_at),
        endedAt: row.ended_at === null ? null : Number(row.ended_at),
      };
      events.push(e);
      alarms.set(e, {
        id: e.alarmId,
        level: e.level,
        code: e.code,
        description: e.description,
        deviceId: row.device_id,
        devcode: e.devcode,
        devtype: e.devtype,
        sn: e.sn,
        pn: e.pn,
        plantId: e.plantId,
        timezone: e.tz,
        startedAt: e.startedAt,
        endedAt: e.endedAt,
      });
    };
    // Backfilled history (started long ago) is not news: never mailed.
    for (const row of raised) if (Number(row.started_at) >= now - this.d.config.staleMs) add(row, 'raised');
    for (const row of ended) add(row, 'cleared');

    // Subscriptions of the events' plants, by subscription; each subscriber's access re-checked.
    const targets = await this.d.pushes.targetsOf([...new Set(events.map((e) => e.plantId))]);
    const byPush = new Map<number, { target: PushTarget; plants: Set<number> }>();
    for (const t of targets) {
      const entry = byPush.get(t.pushId) ?? { target: t, plants: new Set<number>() };
      entry.plants.add(t.projectId);
      byPush.set(t.pushId, entry);
    }
    const visible = await this.visiblePlants([...byPush.values()]);
    const mails: NewMail[] = [];
    const announced = new Set<number>();
    for (const { target, plants } of byPush.values()) {
      const mine: AlarmEvent[] = [];
      for (const e of events) {
        if (!plants.has(e.plantId) || !visible.get(target.accountId)?.has(e.plantId)) continue;
        if ((target.alarmLevels & (1 << e.level)) === 0) continue;
        if (await this.suppressed(alarms.get(e)!, { accountId: target.accountId, pushId: target.pushId }, now)) continue;
        mine.push(e);
      }
      if (mine.length === 0) continue;
      for (const e of mine) if (e.kind === 'raised' && e.endedAt === null) announced.add(e.alarmId);
      const rendered = renderAlarmMail(mine, { email: target.email, locale: target.locale, role: target.role }, this.d.config.publicUrl);
      const key = crypto
        .createHash('sha1')
        .update(mine.map((e) => `${e.kind[0]}${e.alarmId}`).join(','))
        .digest('hex');
      mails.push({
        dedupeKey: `alarm:${target.pushId}:${key}`,
        kind: 'alarm',
        accountId: target.accountId,
        recipient: target.email,
        locale: target.locale,
        ...rendered,
      });
    }

    const state = this.d.sending() ? 'queued' : 'outbox';
    const committed = await this.d.dbh.transaction(async () => {
      const moved = await this.db
        .updateTable('notification_cursors')
        .set({ value: newCursor })
        .where('name', '=', CURSOR)
        .where('value', '=', cursor)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false; // another instance did this pass
      for (const m of mails) await this.d.queue.enqueue(m, state, now);
      if (announced.size > 0) {
        await this.db
          .insertInto('alarm_notices')
          .values([...announced].map((id) => ({ alarm_id: id, created_at: now })))
          .onConflict((oc) => oc.column('alarm_id').doNothing())
          .execute();
      }
      if (ended.length > 0) {
        await this.db
          .deleteFrom('alarm_notices')
          .where(
            'alarm_id',
            'in',
            ended.map((r) => Number(r.id)),
          )
          .execute();
      }
      // Alarms deleted with their datalogger's data (reset) no longer wait for their end.
      await sql`delete from alarm_notices where not exists (select 1 from alarms where alarms.id = alarm_notices.alarm_id)`.execute(
        this.db,
      );
      return true;
    });
    if (!committed) return { events: 0, mails: 0, more: false };
    return { events: events.length, mails: mails.length, more: raised.length === BATCH || ended.length === BATCH };
  }

  /** Per subscriber account: which of its subscribed plants it may still see now. */
  private async visiblePlants(entries: Array<{ target: PushTarget; plants: Set<number> }>): Promise<Map<number, Set<number>>> {
    const byAccount = new Map<number, { target: PushTarget; plants: Set<number> }>();
    for (const e of entries) {
      const a = byAccount.get(e.target.accountId) ?? { target: e.target, plants: new Set<number>() };
      for (const p of e.plants) a.plants.add(p);
      byAccount.set(e.target.accountId, a);
    }
    const out = new Map<number, Set<number>>();
    for (const [accountId, { target, plants }] of byAccount) {
      if (target.status !== ACCOUNT_STATUS.ENABLED) continue;
      const base: Caller = {
        accountId,
        usr: '',
        role: target.role,
        path: target.path,
        status: target.status,
        adminOf: target.adminOf,
        permissions: permissionSet({ role: target.role, permissions: target.permissions, admin_of: target.adminOf }),
        sessionId: 0,
      };
      // A sub-administrator's bound role decides, as for its own calls (a role edit counts at once).
      const caller = await withBoundRole(base, (id) => this.d.access.roleFunctions(id));
      if (target.role === ROLE.DISTRIBUTOR && !callerHasPermission(caller, 'alarm_manag')) continue;
      out.set(accountId, await this.d.access.checkAccess({ caller, permission: 'plant.read', ids: [...plants] }));
    }
    return out;
  }
}
