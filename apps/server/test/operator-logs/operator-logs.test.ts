import { ApiCallError, type ActionLogRow, type AuthDat, type OperatorCollectorLogRow } from '@sunwatch/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { PRUNE_LOGS_JOB, pruneLogs } from '../../src/jobs/prune-logs.job.js';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';
import { clientIdOf, connectDatalogger, createDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Issue 14, the operator's `log` and `actionLog` pages (docs/operator/logs.md): the platform's
 * datalogger log (refused MQTT sign-ins with their reason, written by the real broker), the action
 * log with its filters, paging and redaction, the retention setting (environment seed, operator
 * setting, audited) and the prune job that removes old rows only. Operator only.
 */
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 0, 10, 12, 0, 0);

async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(engines)('operator logs ($name)', (engine) => {
  let s: TestServer;
  let operator: ApiClient;
  let maker: ApiClient;
  let operatorToken = '';

  const session = async (usr: string, pwd: string) => {
    const r = await s.login(usr, pwd);
    expect(r.err, usr).toBe(0);
    const dat = r.dat as AuthDat;
    return { api: s.api({ token: dat.token, secret: dat.secret }), dat };
  };
  const collectorLogs = (p: Record<string, string | number>) =>
    operator.call('queryCollectorLogs', { pagesize: 100, ...p } as never) as Promise<{
      total: number;
      log: OperatorCollectorLogRow[];
    }>;
  const actionLog = async (p: Record<string, string | number>) => {
    await s.ctx.services.actionLog.flush();
    return operator.call('queryActionLog', { pagesize: 100, ...p }) as Promise<{ total: number; log: ActionLogRow[] }>;
  };

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: {
        telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false },
        // The environment seed (ACTION_LOG_RETENTION_DAYS / COLLECTOR_LOG_RETENTION_DAYS).
        logRetention: { actionLogDays: 30, collectorLogDays: 45, sampleDays: 730 },
      },
    });
    const op = await session('operator', 'Operator_2026');
    operator = op.api;
    operatorToken = op.dat.token;
    maker = (await session('sunmaker', 'Maker_2026')).api;
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('operator only: a manufacturer gets err 11 for every log action', async () => {
    expect(await errOf(maker.call('queryCollectorLogs', { from: BASE, to: BASE + DAY }))).toBe(11);
    expect(await errOf(maker.call('queryActionLog', {}))).toBe(11);
    expect(await errOf(maker.call('queryLogRetention', {}))).toBe(11);
    expect(await errOf(maker.call('setLogRetention', { actionLogDays: 5 }))).toBe(11);
  });

  it('refused MQTT sign-ins are logged with their reason (real broker)', async () => {
    const wrong = await createDatalogger(s.ctx);
    const badId = await createDatalogger(s.ctx);
    const noToken = await createDatalogger(s.ctx);
    await s.ctx.db.updateTable('dataloggers').set({ device_token_hash: null }).where('pn', '=', noToken.pn).execute();
    s.ctx.services.telemetry.ingest.invalidate(noToken.pn);
    const unknownPn = `ZZ${wrong.pn.slice(2)}`;
    const refused = (pn: string, token: string, extra = {}) =>
      expect(connectDatalogger(s.mqtt!.port, pn, token, extra)).rejects.toThrow();
    await refused(wrong.pn, 'not-the-token');
    await refused(unknownPn, 'whatever');
    await refused(noToken.pn, 'whatever');
    await refused(badId.pn, badId.token, { clientId: clientIdOf(wrong.pn) });
    const ok = await connectDatalogger(s.mqtt!.port, wrong.pn, wrong.token);
    await ok.endAsync();

    const now = s.clock.now();
    const window = { from: now - 3600_000, to: now + 3600_000 };
    const fails = await until(
      () => collectorLogs({ ...window, kinds: 'auth_fail' }),
      (r) => r.total >= 4,
    );
    const reasonOf = (pn: string) => fails.log.find((r) => r.pn === pn)?.detail;
    expect(reasonOf(wrong.pn)).toBe('wrong_token');
    expect(reasonOf(unknownPn)).toBe('unknown_pn');
    expect(reasonOf(noToken.pn)).toBe('no_token');
    expect(reasonOf(badId.pn)).toBe(`client_id ${clientIdOf(wrong.pn)}`);
    expect(fails.log.every((r) => r.kind === 'auth_fail')).toBe(true);

    const own = await until(
      () => collectorLogs({ ...window, pn: wrong.pn, exact: 1 }),
      (r) => r.log.some((e) => e.kind === 'disconnect'),
    );
    expect(own.log.map((r) => r.kind)).toEqual(expect.arrayContaining(['auth_fail', 'connect', 'disconnect']));
    expect(own.log.every((r) => r.pn === wrong.pn)).toBe(true);
  });

  it('datalogger log: PN contained or exact, kinds, result, time range and paging, newest first', async () => {
    const rows = [
      { ts: BASE, pn: 'OPLOGA0001', kind: 'connect', cmd: '', result: 0 },
      { ts: BASE + 1000, pn: 'OPLOGA0001', kind: 'command', cmd: 'reboot', result: 0, usr: 'operator' },
      { ts: BASE + 2000, pn: 'OPLOGA0001', kind: 'timeout', cmd: 'reboot', result: 2 },
      { ts: BASE + 3000, pn: 'OPLOGA0002', kind: 'ack', cmd: 'reset', result: 0 },
      { ts: BASE + 4000, pn: 'OPLOGA0002', kind: 'ack', cmd: 'reset', result: 1 },
      { ts: BASE + 5000, pn: 'XOPLOGA00010', kind: 'disconnect', cmd: '', result: 0 },
      { ts: BASE + 40 * DAY, pn: 'OPLOGA0001', kind: 'connect', cmd: '', result: 0 },
    ];
    await s.ctx.db
      .insertInto('datalogger_events')
      .values(rows.map((r) => ({ usr: '', detail: '', ...r })))
      .execute();
    const range = { from: BASE, to: BASE + DAY };

    const fuzzy = await collectorLogs({ ...range, pn: 'ploga0001' });
    expect(fuzzy.total).toBe(4); // OPLOGA0001 ×3 and XOPLOGA00010
    expect(fuzzy.log.map((r) => r.ts)).toEqual([BASE + 5000, BASE + 2000, BASE + 1000, BASE]);
    const exact = await collectorLogs({ ...range, pn: 'oploga0001', exact: 1 });
    expect(exact.log.map((r) => r.pn)).toEqual(['OPLOGA0001', 'OPLOGA0001', 'OPLOGA0001']);
    expect(exact.log[1]).toMatchObject({ kind: 'command', cmd: 'reboot', usr: 'operator', result: 0 });

    const kinds = await collectorLogs({ ...range, pn: 'OPLOG', kinds: 'ack,timeout' });
    expect(kinds.log.map((r) => r.kind)).toEqual(['ack', 'ack', 'timeout']);
    const failed = await collectorLogs({ ...range, pn: 'OPLOG', result: 'failed' });
    expect(failed.log.map((r) => [r.pn, r.result])).toEqual([
      ['OPLOGA0002', 1],
      ['OPLOGA0001', 2],
    ]);
    const okOnly = await collectorLogs({ ...range, pn: 'OPLOG', result: 'ok' });
    expect(okOnly.total).toBe(4);

    const p0 = await collectorLogs({ ...range, pn: 'OPLOG', pagesize: 4, page: 0 });
    const p1 = await collectorLogs({ ...range, pn: 'OPLOG', pagesize: 4, page: 1 });
    expect(p0.total).toBe(6);
    expect(p0.log).toHaveLength(4);
    expect(p1.log.map((r) => r.ts)).toEqual([BASE + 1000, BASE]);
    const later = await collectorLogs({ from: BASE + 30 * DAY, to: BASE + 41 * DAY, pn: 'OPLOG' });
    expect(later.log.map((r) => r.ts)).toEqual([BASE + 40 * DAY]);

    expect(await errOf(collectorLogs({ from: BASE, to: BASE + 32 * DAY }))).toBe(6); // over 31 days
    expect(await errOf(collectorLogs({ from: BASE, to: BASE }))).toBe(6);
    expect(await errOf(collectorLogs({ ...range, kinds: 'connect,bogus' }))).toBe(6);
  });

  it('action log: filters, paging, newest first; a real sign-in keeps no password, sign or token', async () => {
    // A real sign-in of the manufacturer from a known address, and a failed one.
    expect((await s.login('sunmaker', 'Maker_2026', { ip: '10.77.1.5' })).err).toBe(0);
    expect((await s.login('sunmaker', 'Wrong_pass_1', { ip: '10.77.1.6' })).err).not.toBe(0);

    const signIns = await actionLog({ actionName: 'auth*', ip: '10.77.1.' });
    expect(signIns.total).toBe(2);
    expect(signIns.log.map((r) => r.ip)).toEqual(['10.77.1.6', '10.77.1.5']);
    expect(signIns.log[1]!.err).toBe(0);
    expect(signIns.log[0]!.err).not.toBe(0);
    const text = JSON.stringify(signIns);
    expect(text).not.toContain('Maker_2026');
    expect(text).not.toContain('Wrong_pass_1');
    const params = signIns.log[1]!.params as Record<string, unknown>;
    expect(params.usr).toBe('sunmaker');
    for (const [k, v] of Object.entries(params)) if (/pwd|sign|salt|token/i.test(k)) expect(v, k).toBe('***');

    const failedOnly = await actionLog({ errOnly: 1, ip: '10.77.1.' });
    expect(failedOnly.log.map((r) => r.ip)).toEqual(['10.77.1.6']);
    const byCode = await actionLog({ err: signIns.log[0]!.err, ip: '10.77.1.' });
    expect(byCode.total).toBe(1);

    // The operator's own calls: usr exact (case-insensitive) or prefix, action prefix.
    const mine = await actionLog({ usr: 'OPERATOR', actionName: 'queryCollector*' });
    expect(mine.total).toBeGreaterThanOrEqual(5);
    expect(mine.log.every((r) => r.usr === 'operator' && r.action === 'queryCollectorLogs')).toBe(true);
    expect(mine.log.every((r, i) => i === 0 || r.ts <= mine.log[i - 1]!.ts)).toBe(true);
    expect(JSON.stringify(mine)).not.toContain(operatorToken);
    const prefix = await actionLog({ usr: 'oper*', actionName: 'queryCollectorLogs', pagesize: 2, page: 1 });
    expect(prefix.total).toBe(mine.total);
    expect(prefix.log.map((r) => r.id)).toEqual(mine.log.slice(2, 4).map((r) => r.id));
    expect((await actionLog({ usr: 'oper', actionName: 'queryCollectorLogs' })).total).toBe(0); // exact without *

    // Time range.
    await s.ctx.db
      .insertInto('action_log')
      .values({
        ts: BASE,
        account_id: null,
        usr: 'timetravel',
        action: 'queryPlants',
        ip: '10.1.1.1',
        user_agent: 'test-agent',
        params: '{}',
        err: 0,
        duration_ms: 12,
      })
      .execute();
    const inRange = await actionLog({ from: BASE - 1, to: BASE + 1 });
    expect(inRange.log.map((r) => r.usr)).toEqual(['timetravel']);
    expect(inRange.log[0]).toMatchObject({ userAgent: 'test-agent', durationMs: 12, accountId: null });
    expect((await actionLog({ from: BASE + 1, to: BASE + 2 })).total).toBe(0);
    expect(await errOf(actionLog({ from: BASE, to: BASE }))).toBe(6);
  });

  it('no secret reaches the answer, even from a row stored unredacted or cut at the length cap', async () => {
    const secrets = {
      pwd: 'plain-pwd-1',
      sign: 'sign-abc-2',
      salt: 'salt-3',
      token: 'tok-4',
      newpwd: 'rc4hex-5',
      'company-key': 'CompanyKey_6789',
      rem: 'remember-7',
      smscode: '123456',
      nested: { oldPwd: 'nested-8', ok: 'visible' },
      note: 'see https://x.example/?a=1&token=url-token-9',
    };
    const row = (usr: string, params: string) => ({
      ts: BASE + 7000,
      account_id: null,
      usr,
      action: 'editAccount',
      ip: '10.9.9.9',
      user_agent: '',
      params,
      err: 0,
      duration_ms: 1,
    });
    const cut = `{"note":"${'x'.repeat(20)}","newpwd":"rc4-cut-10`;
    await s.ctx.db
      .insertInto('action_log')
      .values([row('leaky', JSON.stringify(secrets)), row('cutoff', cut)])
      .execute();
    const r = await actionLog({ ip: '10.9.9.9' });
    expect(r.total).toBe(2);
    const text = JSON.stringify(r);
    for (const v of [
      'plain-pwd-1',
      'sign-abc-2',
      'salt-3',
      'tok-4',
      'rc4hex-5',
      'CompanyKey_6789',
      'remember-7',
      '123456',
      'nested-8',
      'url-token-9',
      'rc4-cut-10',
    ])
      expect(text, v).not.toContain(v);
    const leaky = r.log.find((x) => x.usr === 'leaky')!.params as Record<string, unknown>;
    expect(leaky).toMatchObject({
      pwd: '***',
      sign: '***',
      newpwd: '***',
      'company-key': '***',
      nested: { oldPwd: '***', ok: 'visible' },
    });
    const cutRow = r.log.find((x) => x.usr === 'cutoff')!.params;
    expect(typeof cutRow).toBe('string');
    expect(cutRow).toContain('"newpwd":"***');
  });

  it('retention: environment seed, operator setting (audited), prune removes old rows only in batches', async () => {
    const r0 = await operator.call('queryLogRetention', {});
    expect(r0).toMatchObject({
      actionLogDays: 30,
      collectorLogDays: 45,
      source: { actionLog: 'default', collectorLog: 'default' },
      defaults: { actionLogDays: 30, collectorLogDays: 45 },
    });
    expect(await errOf(operator.call('setLogRetention', {}))).toBe(7);
    expect(await errOf(operator.call('setLogRetention', { actionLogDays: 0 }))).toBe(6);
    expect(await errOf(operator.call('setLogRetention', { actionLogDays: 3651 }))).toBe(6);
    const r1 = await operator.call('setLogRetention', { actionLogDays: 7 });
    expect(r1).toMatchObject({
      actionLogDays: 7,
      collectorLogDays: 45,
      source: { actionLog: 'setting', collectorLog: 'default' },
    });
    expect(await errOf(operator.call('setLogRetention', { actionLogDays: 7 }))).toBe(271);
    const audit = await s.ctx.db.selectFrom('audit_log').selectAll().where('entity', '=', 'platform_setting').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      usr: 'operator',
      action: 'setLogRetention',
      entity_id: 'log_retention.action_log_days',
    });
    expect(JSON.parse(audit[0]!.before!)).toEqual({ days: 30, source: 'default' });
    expect(JSON.parse(audit[0]!.after!)).toEqual({ days: 7 });

    const now = s.clock.now();
    await s.ctx.services.actionLog.flush();
    const base = {
      account_id: null,
      usr: 'aged',
      action: 'queryPlants',
      ip: '10.8.8.8',
      user_agent: '',
      params: '{}',
      err: 0,
      duration_ms: 1,
    };
    await s.ctx.db
      .insertInto('action_log')
      .values([
        ...Array.from({ length: 5 }, (_, i) => ({ ...base, ts: now - 8 * DAY - i * 1000 })),
        { ...base, ts: now - 6 * DAY },
      ])
      .execute();
    const ev = { kind: 'connect', cmd: '', result: 0, usr: '', detail: '' };
    await s.ctx.db
      .insertInto('datalogger_events')
      .values([
        { ...ev, pn: 'AGEDPN0001', ts: now - 46 * DAY },
        { ...ev, pn: 'AGEDPN0001', ts: now - 50 * DAY },
        { ...ev, pn: 'AGEDPN0002', ts: now - 44 * DAY },
      ])
      .execute();
    const countOld = async () => {
      const a = await sql<{ n: number }>`select count(*) as n from action_log where ts < ${now - 7 * DAY}`.execute(
        s.ctx.db,
      );
      const e = await sql<{
        n: number;
      }>`select count(*) as n from datalogger_events where ts < ${now - 45 * DAY}`.execute(s.ctx.db);
      return [Number(a.rows[0]!.n), Number(e.rows[0]!.n)];
    };
    const before = await countOld();
    expect(before[0]).toBeGreaterThanOrEqual(5); // the BASE rows of the earlier tests are older too
    expect(before[1]).toBeGreaterThanOrEqual(2);
    const totalActions = Number(
      (await sql<{ n: number }>`select count(*) as n from action_log`.execute(s.ctx.db)).rows[0]!.n,
    );

    const removed = await s.ctx.services.operatorLogs.prune({ batch: 2 });
    expect(removed.actionLog).toBe(before[0]);
    expect(removed.collectorLog).toBe(before[1]);
    expect(await countOld()).toEqual([0, 0]);
    const kept = await actionLog({ usr: 'aged' });
    expect(kept.log.map((r) => r.ts)).toEqual([now - 6 * DAY]);
    const keptEvents = await collectorLogs({ from: now - 60 * DAY, to: now - 30 * DAY, pn: 'AGEDPN', exact: 0 });
    expect(keptEvents.log.map((r) => r.pn)).toEqual(['AGEDPN0002']);
    const afterTotal = Number(
      (await sql<{ n: number }>`select count(*) as n from action_log`.execute(s.ctx.db)).rows[0]!.n,
    );
    expect(afterTotal).toBeGreaterThanOrEqual(totalActions - before[0]!);

    // The job under its lease records its run, shown by queryLogRetention.
    const jobs = new JobRunner(s.ctx.db, s.ctx.now, s.ctx.log);
    expect(await jobs.runOnce(PRUNE_LOGS_JOB, 60_000, () => pruneLogs(s.ctx))).toBe(true);
    const r2 = await operator.call('queryLogRetention', {});
    expect(r2.lastPruneAt).not.toBeNull();
    expect(r2.lastPruneError).toBe('');
  });
});
