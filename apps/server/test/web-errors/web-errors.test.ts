import {
  ApiCallError,
  WEB_REPORT_RATE,
  type AuthDat,
  type Envelope,
  type WebErrorEventDetail,
  type WebErrorEventRow,
  type WebErrorGroupRow,
  type WebEvent,
  type WebReportDat,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneLogs } from '../../src/jobs/prune-logs.job.js';
import { engines, freshIp, startTestServer, type ApiClient, type TestServer } from '../harness.js';

/**
 * Issue 16, web error reporting (docs/operations.md "Web error reporting"): the signed collector
 * (account and manufacturer recorded), the public one before sign-in (per-address limit, err 13),
 * scrubbing of secrets, grouping by fingerprint with repeats folded per tab session, the operator's
 * reads (a manufacturer gets err 11), the metrics counter and pruning with the action log.
 */
const TOKEN = 'metrics-web-errors-0123456789';
const DAY = 86_400_000;

async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

const err = (over: Partial<WebEvent> = {}): WebEvent => ({
  kind: 'error',
  source: 'onerror',
  ts: 1,
  message: 'TypeError: Cannot read properties of undefined (reading "pid")',
  stack:
    'TypeError: Cannot read\n    at PlantCard (https://x.test/assets/PlantCard-AbCd1234.js:1:2345)\n    at r (https://x.test/assets/vendor-react-Zz9y8x7w.js:9:99)',
  url: '/adminNew/project?pid=42',
  route: '/adminNew/project',
  ...over,
});

describe.each(engines)('web error reporting ($name)', (engine) => {
  let s: TestServer;
  let operator: ApiClient;
  let maker: ApiClient;
  let anna: ApiClient;
  let annaUid = 0;

  const session = async (usr: string, pwd: string) => {
    const r = await s.login(usr, pwd);
    expect(r.err, usr).toBe(0);
    const dat = r.dat as AuthDat;
    return { api: s.api({ token: dat.token, secret: dat.secret }), dat };
  };
  /** An unsigned report from one client address (form POST, as the web app sends before sign-in). */
  const publicReport = async (events: WebEvent[], ip: string, sid = 'tab-public-0001') => {
    const body = `salt=${Date.now()}&action=reportWebEventsPublic&sid=${sid}&release=r1&events=${encodeURIComponent(JSON.stringify(events))}`;
    return (
      await s.request<Envelope<WebReportDat>>('/public/', {
        method: 'POST',
        body,
        ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'TestBrowser/1.0' },
      })
    ).body;
  };
  const groups = (p: Record<string, string | number> = {}) =>
    operator.call('queryWebErrorGroups', { pagesize: 100, ...p } as never) as Promise<{
      total: number;
      group: WebErrorGroupRow[];
      releases: string[];
    }>;
  const events = (fingerprint: string) =>
    operator.call('queryWebErrorEvents', { fingerprint, pagesize: 100 }) as Promise<{
      total: number;
      event: WebErrorEventRow[];
    }>;

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { ops: { metricsHost: '127.0.0.1', shutdownTimeoutMs: 10_000, metricsToken: TOKEN } },
    });
    operator = (await session('operator', 'Operator_2026')).api;
    maker = (await session('sunmaker', 'Maker_2026')).api;
    const a = await session('owner_anna', 'Owner_2026');
    anna = a.api;
    annaUid = a.dat.uid;
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('a signed report is stored with the account and its manufacturer; repeats in one tab fold into a count', async () => {
    const r = await anna.post('reportWebEvents', {
      sid: 'tab-anna-0001',
      release: '2026.06.15',
      events: JSON.stringify([err(), err({ ts: 2 }), err({ ts: 3, url: '/adminNew/project?pid=43' })]),
    });
    expect(r).toEqual({ accepted: 3, dropped: 0 });
    // Another tab: its own row in the same group.
    await anna.post('reportWebEvents', {
      sid: 'tab-anna-0002',
      release: '2026.06.15',
      events: JSON.stringify([err()]),
    });
    const g = await groups({ kind: 'error' });
    const mine = g.group.filter((x) => x.route === '/adminNew/project');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ kind: 'error', count: 4, sessions: 2, accounts: 1, release: '2026.06.15' });
    expect(g.releases).toContain('2026.06.15');
    const ev = await events(mine[0]!.fingerprint);
    expect(ev.total).toBe(2);
    const folded = ev.event.find((e) => e.count === 3)!;
    expect(folded).toMatchObject({ accountId: annaUid, usr: 'owner_anna', url: '/adminNew/project?pid=43' });
    const makerId = (await s.ctx.repos.accounts.findByUsr('sunmaker'))!.id;
    expect(folded.tenantId).toBe(makerId);
    const detail = (await operator.call('queryWebErrorEvent', { id: folded.id })) as WebErrorEventDetail;
    expect(detail.stack).toContain('PlantCard');
    expect(detail.breadcrumbs).toEqual([]);
  });

  it('a different error, a trace and a replay are groups of their own; filters by kind and release', async () => {
    await anna.post('reportWebEvents', {
      sid: 'tab-anna-0003',
      release: '2026.06.16',
      events: JSON.stringify([
        err({ message: 'RangeError: Maximum call stack size exceeded', stack: 'at loop (a.js:1:1)' }),
        {
          kind: 'trace',
          source: 'navigation',
          ts: 5,
          message: 'Slow navigation',
          route: '/adminNew/device',
          durationMs: 4500,
        },
        {
          kind: 'replay',
          source: 'session',
          ts: 6,
          message: 'Session trail',
          route: '/adminNew/home',
          breadcrumbs: [
            { ts: 1, type: 'route', message: '/adminNew/home' },
            { ts: 2, type: 'click', message: 'button "Save"' },
          ],
        },
      ]),
    });
    const all = await groups({ release: '2026.06.16' });
    expect(all.group.map((x) => x.kind).sort()).toEqual(['error', 'replay', 'trace']);
    const traces = await groups({ kind: 'trace' });
    expect(traces.group).toHaveLength(1);
    const t = (await events(traces.group[0]!.fingerprint)).event[0]!;
    expect(t.durationMs).toBe(4500);
    const replay = (await groups({ kind: 'replay' })).group[0]!;
    const d = (await operator.call('queryWebErrorEvent', { id: replay.lastId })) as WebErrorEventDetail;
    expect(d.breadcrumbs.map((b) => b.type)).toEqual(['route', 'click']);
    // A range that ends before the events: nothing.
    expect((await groups({ from: 0, to: 1 })).total).toBe(0);
  });

  it('secrets never reach the table: tokens, signs, passwords in addresses, messages, stacks and breadcrumbs', async () => {
    const token = 'f'.repeat(64);
    await anna.post('reportWebEvents', {
      sid: 'tab-anna-0004',
      events: JSON.stringify([
        err({
          message: `Failed to fetch /public/?sign=abc123&salt=99&token=${token}&action=queryPlants password=hunter2`,
          stack: `Error\n    at f (https://x.test/a.js?token=${token}:1:1)`,
          url: `/entry?redirect=%2Fhome&pwd=hunter2&token=${token}#secret-fragment`,
          breadcrumbs: [{ ts: 1, type: 'action', message: `queryPlants {"secret":"s3cr3t","token":"${token}"}` }],
        }),
      ]),
    });
    const rows = await s.ctx.db.selectFrom('web_events').selectAll().where('sid', '=', 'tab-anna-0004').execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    for (const secret of [token, 'hunter2', 'abc123', 's3cr3t', 'secret-fragment'])
      expect(stored).not.toContain(secret);
    expect(rows[0]!.url).toBe('/entry?redirect=%2Fhome&pwd=***&token=***');
    expect(rows[0]!.message).toContain('sign=***');
    // The action log's copy of the call's parameters is redacted too.
    await s.ctx.services.actionLog.flush();
    const logged = await s.ctx.db
      .selectFrom('action_log')
      .select('params')
      .where('action', '=', 'reportWebEvents')
      .execute();
    for (const l of logged) expect(l.params).not.toContain('hunter2');
  });

  it('before sign-in: the public collector stores without an account, limited per client address (13)', async () => {
    const ip = freshIp();
    const first = await publicReport([err({ message: 'Entry page broke', url: '/entry' })], ip);
    expect(first).toMatchObject({ err: 0, dat: { accepted: 1, dropped: 0 } });
    const row = await s.ctx.db
      .selectFrom('web_events')
      .selectAll()
      .where('message', '=', 'Entry page broke')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      account_id: null,
      usr: '',
      tenant_id: null,
      user_agent: 'TestBrowser/1.0',
      release: 'r1',
    });
    // The rest of the address's window: a batch bigger than what is left is cut, then 13.
    const left = WEB_REPORT_RATE.perAddress - 1;
    const batch = Array.from({ length: Math.min(20, left + 2) }, (_, i) => err({ message: `Entry ${i}` }));
    const second = await publicReport(batch, ip);
    expect(second).toMatchObject({ err: 0, dat: { accepted: left, dropped: batch.length - left } });
    const third = await publicReport([err()], ip);
    expect(third.err).toBe(13);
    // Another address still reports.
    expect((await publicReport([err()], freshIp())).err).toBe(0);
  });

  it('the public collector refuses what breaks the schema (err 6) without storing', async () => {
    const ip = freshIp();
    const before = await s.ctx.db
      .selectFrom('web_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await publicReport([err({ message: 'x'.repeat(1001) })], ip)).err).toBe(6);
    expect((await publicReport([{ ...err(), kind: 'crash' as never }], ip)).err).toBe(6);
    const after = await s.ctx.db
      .selectFrom('web_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('operator only: a manufacturer and an owner get err 11 for every read', async () => {
    for (const api of [maker, anna]) {
      expect(await errOf(api.call('queryWebErrorGroups', {}))).toBe(11);
      expect(await errOf(api.call('queryWebErrorEvents', { fingerprint: '0'.repeat(40) }))).toBe(11);
      expect(await errOf(api.call('queryWebErrorEvent', { id: 1 }))).toBe(11);
    }
    expect(await errOf(operator.call('queryWebErrorEvent', { id: 999_999 }))).toBe(12);
  });

  it('/metrics counts received events by kind and the dropped ones', async () => {
    const text = (await s.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text;
    const value = (series: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${series} `))
          ?.slice(series.length + 1) ?? NaN,
      );
    expect(value('sunwatch_web_events_received_total{kind="error"}')).toBeGreaterThanOrEqual(10);
    expect(value('sunwatch_web_events_received_total{kind="trace"}')).toBe(1);
    expect(value('sunwatch_web_events_received_total{kind="replay"}')).toBe(1);
    expect(value('sunwatch_web_events_dropped_total')).toBeGreaterThanOrEqual(2);
  });

  it('the prune job removes events last seen before the action log retention, and only those', async () => {
    const n = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('web_events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const total = await n();
    const old = s.ctx.now() - 400 * DAY;
    await s.ctx.db
      .updateTable('web_events')
      .set({ ts: old, first_seen: old })
      .where('sid', '=', 'tab-anna-0002')
      .execute();
    await pruneLogs(s.ctx);
    expect(await n()).toBe(total - 1);
    expect(await s.ctx.db.selectFrom('web_events').select('id').where('sid', '=', 'tab-anna-0002').execute()).toEqual(
      [],
    );
  });
});
