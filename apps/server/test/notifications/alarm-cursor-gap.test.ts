import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Issue 16, several instances: alarm ids come from a sequence, and with several writers (the
 * ingest batches of two instances, the offline job) a later id can commit before an earlier one.
 * The notifier's cursor must not pass an alarm whose insert is still uncommitted, or that alarm is
 * never mailed. PostgreSQL only (SQLite has one writer: ids commit in order).
 */
const pgEngine = engines.find((e) => e.name === 'postgres');

describe.skipIf(!pgEngine)('alarm mails: an alarm committed after a newer one is still mailed (postgres)', () => {
  let s: TestServer;
  let dl: TestDatalogger;
  let other: TestDatalogger;

  beforeAll(async () => {
    s = await startTestServer(pgEngine!, {
      seed: false,
      config: { telemetry: { ...loadConfig({}).telemetry, mqttEnabled: false, jobsEnabled: false } },
    });
    const owner = await s.ctx.services.accounts.create({ usr: 'gap_owner', password: 'Gap_2026', role: 0 });
    // Two dataloggers (alarms of one datalogger serialize on its alarm_counts row; two instances
    // ingesting different dataloggers do not).
    dl = await createDatalogger(s.ctx);
    other = await createDatalogger(s.ctx);
    await s.ctx.db
      .updateTable('projects')
      .set({ owner_id: owner.id })
      .where('id', 'in', [dl.projectId!, other.projectId!])
      .execute();
    const now = Date.now();
    const push = await s.ctx.db
      .insertInto('email_push')
      .values({
        account_id: owner.id,
        email: 'gap@example.com',
        alarm_levels: 0b1111,
        report_types: 0,
        locale: 'en_US',
        enabled: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.ctx.db
      .insertInto('email_push_plants')
      .values([dl, other].map((d) => ({ push_id: push.id, project_id: d.projectId! })))
      .execute();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('the notifier waits for the older uncommitted insert instead of moving its cursor past it', async () => {
    const notifier = s.ctx.services.notifications.alarms;
    await notifier.runOnce(); // the cursor starts at the newest alarm (none yet)
    const alarm = (code: number) => ({
      datalogger_id: other.id,
      device_id: null,
      level: 2,
      code,
      description: `Gap alarm ${code}`,
      started_at: Date.now(),
      ended_at: null,
      handled: 0,
    });
    // Writer 1 (another instance's batch): takes the lower id and has not committed yet.
    const slow = new pg.Client({ connectionString: s.config.databaseUrl });
    await slow.connect();
    try {
      await slow.query('begin');
      const older = await slow.query<{ id: number }>(
        `insert into alarms (datalogger_id, device_id, level, code, description, started_at, ended_at, handled)
         values ($1, null, 2, 101, 'Gap alarm 101', $2, null, 0) returning id`,
        [dl.id, Date.now()],
      );
      // Writer 2 commits a higher id first.
      const newer = await s.ctx.db.insertInto('alarms').values(alarm(102)).returning('id').executeTakeFirstOrThrow();
      expect(Number(newer.id)).toBeGreaterThan(Number(older.rows[0]!.id));
      const run = notifier.runOnce();
      await new Promise((r) => setTimeout(r, 300));
      await slow.query('commit');
      await run;
      await notifier.runOnce();
      const mails = await s.ctx.db.selectFrom('mail_queue').select('body_text').execute();
      const mailed = mails.flatMap((m) => [...m.body_text.matchAll(/alarm\?id=(\d+)/g)].map((x) => Number(x[1])));
      expect(mailed.sort((x, y) => x - y)).toEqual([Number(older.rows[0]!.id), Number(newer.id)]);
    } finally {
      await slow.end();
    }
  });
});
