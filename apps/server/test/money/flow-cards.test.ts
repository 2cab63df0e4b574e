import { CARD_GRACE_DAYS, deriveCardStatus, type AuthDat, type GprsCollectorRow } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCardStatuses } from '../../src/jobs/refresh-card-status.job.js';
import { seedDemoFlowCards } from '../../src/demo/seed-flow-cards.js';
import { FIXED_NOW, engines, startTestServer, type TestServer } from '../harness.js';
import { prepare } from '../distribution/helpers.js';
import type { Caller } from '../../src/context.js';

const DAY = 86_400_000;

interface GprsDat {
  total: number;
  page: number;
  pagesize: number;
  collector: GprsCollectorRow[];
  stat?: Record<string, number>;
}

/**
 * queryGprsCollector (vendor-actions.md §6) with issue 15's flow-card fields, on SQLite and
 * PostgreSQL: fuzzy pn and ccid, load, scoping, paging, 0x0101, the card status derived in SQL
 * exactly as protocol deriveCardStatus, the web filters and counts, the card-status job, the demo.
 */
describe.each(engines)('flow cards: queryGprsCollector ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const call = <T = GprsDat>(usr: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, 'queryGprsCollector', params);
  const now = FIXED_NOW;

  const setCard = (pn: string, v: Record<string, unknown>) =>
    s.ctx.db.updateTable('dataloggers').set(v).where('pn', '=', pn).execute();

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    sessions = await prepare(s);
    await setCard('SWSOUTH0000001', {
      ccid: '89860012345678901234',
      imsi: '460001234567890',
      card_carrier: 'China Mobile',
      card_package: '100 MB / month',
      card_used_kb: 90 * 1024,
      card_limit_kb: 100 * 1024,
      card_network: '2G',
      card_type: 'standard',
      card_area: 'mainland',
      card_activated_at: now - 200 * DAY,
      card_expire_at: now + 165 * DAY,
      card_status: 0,
    });
    await setCard('SWSOUTH0000002', {
      ccid: '89490099988877766655',
      card_carrier: 'Vodafone',
      card_used_kb: 10,
      card_limit_kb: 30 * 1024,
      card_network: '4G',
      card_type: 'standard',
      card_area: 'international',
      card_expire_at: now - 10 * DAY,
      load_count: 3,
    });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('answers the vendor keys plus the card fields; the status is derived as of now, not the stored code', async () => {
    const res = await call('dealer_south', { ccid: '5678', pagesize: 10 });
    expect(res.err).toBe(0);
    expect(res.dat!.total).toBe(1);
    const row = res.dat!.collector[0]!;
    // The vendor's keys, in order, before the additive ones.
    expect(Object.keys(row).slice(0, 10)).toEqual([
      'pn',
      'alias',
      'datFetch',
      'timezone',
      'load',
      'status',
      'uid',
      'pid',
      'type',
      'fireware',
    ]);
    expect(Object.keys(row.gprs).slice(0, 5)).toEqual(['ccid', 'card', 'imsi', 'expire', 'traffic']);
    expect(row).toMatchObject({
      pn: 'SWSOUTH0000001',
      gprs: {
        ccid: '89860012345678901234',
        imsi: '460001234567890',
        operator: 'China Mobile',
        package: '100 MB / month',
        usedKb: 92160,
        limitKb: 102400,
        traffic: 90,
        network: '2G',
        cardType: 'standard',
        area: 'mainland',
        activatedAt: now - 200 * DAY,
        expireAt: now + 165 * DAY,
        // 90 % used → warning (the stored code said 0).
        card: 1,
        status: 'warning',
      },
    });
    expect(row.gprs.expire).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(row.gprs.activated).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  it('fuzzy pn (any case), fuzzy ccid, load; a pn matching none → 257 (0x0101)', async () => {
    const byPn = await call('dealer_south', { pn: 'south00000' });
    expect(byPn.dat!.collector.map((c) => c.pn)).toEqual(['SWSOUTH0000001', 'SWSOUTH0000002']);
    expect((await call('dealer_south', { ccid: '8949' })).dat!.collector.map((c) => c.pn)).toEqual(['SWSOUTH0000002']);
    expect((await call('dealer_south', { load: 3 })).dat!.collector.map((c) => c.pn)).toEqual(['SWSOUTH0000002']);
    expect((await call('dealer_south', { pn: 'SOUTH', load: 7 })).err).toBe(257);
    expect((await call('dealer_south', { pn: 'NOPE' })).err).toBe(257);
    // A ccid matching none is an empty page, not an error (the vendor names 0x0101 for the pn).
    expect((await call('dealer_south', { ccid: '0000000' })).dat!.total).toBe(0);
    // LIKE wildcards are literal.
    expect((await call('dealer_south', { ccid: '%' })).dat!.total).toBe(0);
  });

  it('scoped to the dataloggers the caller may see', async () => {
    const north = await call('dealer_north', { pagesize: 50 });
    expect(north.err).toBe(0);
    expect(north.dat!.collector.map((c) => c.pn)).not.toContain('SWSOUTH0000001');
    expect(north.dat!.collector.map((c) => c.pn)).toContain('SWNORTH0000001');
    expect((await call('dealer_north', { ccid: '5678' })).dat!.total).toBe(0);
    expect((await call('owner_anna', { pn: 'SWSOUTH' })).err).toBe(257);
    const ben = await call('owner_ben', { pagesize: 50 });
    expect(ben.dat!.collector.map((c) => c.pn).sort()).toEqual(['SWSOUTH0000001', 'SWSOUTH0000002']);
    const op = await call('operator', { search: 'south', pagesize: 50 });
    expect(op.dat!.total).toBe(2);
  });

  it('pages on the server', async () => {
    const all = await call('dealer_north', { pagesize: 50 });
    expect(all.dat!.total).toBeGreaterThan(3);
    const p1 = await call('dealer_north', { pagesize: 2, page: 1 });
    expect(p1.dat).toMatchObject({ total: all.dat!.total, page: 1, pagesize: 2 });
    expect(p1.dat!.collector.map((c) => c.pn)).toEqual(all.dat!.collector.slice(2, 4).map((c) => c.pn));
    const past = await call('dealer_north', { pagesize: 50, page: 9 });
    expect(past.dat!.collector).toEqual([]);
    expect((await call('dealer_north', { pagesize: 51 })).err).toBe(6);
  });

  it('web filters: search PN or CCID, card status, network; stat counts per status and 2G', async () => {
    expect((await call('dealer_south', { search: '99988' })).dat!.collector.map((c) => c.pn)).toEqual([
      'SWSOUTH0000002',
    ]);
    const overdue = await call('dealer_south', { cardStatus: 'overdue' });
    expect(overdue.dat!.collector.map((c) => [c.pn, c.gprs.status])).toEqual([['SWSOUTH0000002', 'overdue']]);
    expect((await call('dealer_south', { network: '2G' })).dat!.collector.map((c) => c.pn)).toEqual(['SWSOUTH0000001']);
    const withStat = await call('dealer_south', { cardStatus: 'warning', stat: 1 });
    expect(withStat.dat!.total).toBe(1);
    expect(withStat.dat!.stat).toEqual({ normal: 0, warning: 1, overdue: 1, expired: 0, unknown: 0, sunset: 1 });
    // Without stat=1 the reply keeps the vendor's shape.
    expect(withStat.dat).toHaveProperty('stat');
    expect((await call('dealer_south', {})).dat).not.toHaveProperty('stat');
    expect((await call('dealer_south', { cardStatus: 'bogus' })).err).toBe(6);
  });

  it('the SQL derivation equals deriveCardStatus at every boundary', async () => {
    const cases: Array<{ ccid: string; exp: number | null; used: number; limit: number }> = [
      { ccid: '', exp: now + 100 * DAY, used: 0, limit: 0 },
      { ccid: '1', exp: null, used: 0, limit: 0 },
      { ccid: '1', exp: now + 31 * DAY, used: 79, limit: 100 },
      { ccid: '1', exp: now + 31 * DAY, used: 80, limit: 100 },
      { ccid: '1', exp: now + 30 * DAY, used: 0, limit: 100 },
      { ccid: '1', exp: now, used: 0, limit: 0 },
      { ccid: '1', exp: now - 1, used: 0, limit: 0 },
      { ccid: '1', exp: now - CARD_GRACE_DAYS * DAY, used: 0, limit: 0 },
      { ccid: '1', exp: now - CARD_GRACE_DAYS * DAY - 1, used: 0, limit: 0 },
      { ccid: '1', exp: now + 400 * DAY, used: 10 ** 7, limit: 0 },
    ];
    for (const c of cases) {
      await setCard('SWSOUTH0000002', {
        ccid: c.ccid === '' ? '' : '894900000000000000' + cases.indexOf(c),
        card_expire_at: c.exp,
        card_used_kb: c.used,
        card_limit_kb: c.limit,
      });
      const row = (await call('owner_ben', { pn: 'SWSOUTH0000002' })).dat!.collector[0]!;
      const expected = deriveCardStatus({ expireAt: c.exp, usedKb: c.used, limitKb: c.limit, now, ccid: c.ccid });
      expect([cases.indexOf(c), row.gprs.status]).toEqual([cases.indexOf(c), expected]);
      const filtered = await call('owner_ben', { cardStatus: expected });
      expect(filtered.dat!.collector.map((r) => r.pn)).toContain('SWSOUTH0000002');
    }
    await setCard('SWSOUTH0000002', { ccid: '89490099988877766655', card_expire_at: now - 10 * DAY, card_used_kb: 10 });
  });

  it('rechargeCards (for recharge orders): visible PNs only, then the §5 batch rule with its error code', async () => {
    const caller = async (usr: string): Promise<Caller> => {
      const c = await s.ctx.db
        .selectFrom('accounts')
        .select(['id', 'role', 'path', 'status'])
        .where('usr', '=', usr)
        .executeTakeFirstOrThrow();
      return {
        accountId: Number(c.id),
        role: Number(c.role),
        usr,
        path: c.path,
        status: Number(c.status),
        adminOf: null,
        permissions: null,
        sessionId: 0,
      };
    };
    const svc = s.ctx.services.collectorAdmin;
    const err = async (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { code: number; detail?: string }) => [e.code, e.detail],
      );
    // SWSOUTH0000001: warning, mainland; SWSOUTH0000002: overdue, international.
    expect(await err(svc.rechargeCards(await caller('dealer_south'), ['SWSOUTH0000001', 'SWSOUTH0000002']))).toEqual([
      8,
      'mixed_load:SWSOUTH0000002',
    ]);
    await setCard('SWSOUTH0000002', { load_count: 1 });
    await setCard('SWSOUTH0000001', { load_count: 1 });
    expect(await err(svc.rechargeCards(await caller('dealer_south'), ['SWSOUTH0000001', 'SWSOUTH0000002']))).toEqual([
      8,
      'mixed_area:SWSOUTH0000002',
    ]);
    await setCard('SWSOUTH0000002', { card_area: 'mainland' });
    expect(await err(svc.rechargeCards(await caller('dealer_south'), ['SWSOUTH0000001', 'SWSOUTH0000002']))).toEqual([
      8,
      'mixed_state:SWSOUTH0000002',
    ]);
    const one = await svc.rechargeCards(await caller('owner_ben'), ['SWSOUTH0000001']);
    expect(one).toMatchObject([{ pn: 'SWSOUTH0000001', status: 'warning', area: 'mainland', load: 1 }]);
    expect(await err(svc.rechargeCards(await caller('dealer_north'), ['SWSOUTH0000001']))).toEqual([
      257,
      'SWSOUTH0000001',
    ]);
    expect(await err(svc.rechargeCards(await caller('owner_ben'), ['SWSOUTH0000001', 'SWSOUTH0000001']))).toEqual([
      1029,
      'pn',
    ]);
    await setCard('SWSOUTH0000002', { card_area: 'international', load_count: 3 });
    await setCard('SWSOUTH0000001', { load_count: 1 });
  });

  it('the card-status job rewrites the stored code of cards whose status moved, and only those', async () => {
    const stored = async (pn: string) =>
      Number(
        (await s.ctx.db.selectFrom('dataloggers').select('card_status').where('pn', '=', pn).executeTakeFirstOrThrow())
          .card_status,
      );
    const changed = await refreshCardStatuses(s.ctx);
    expect(changed).toBeGreaterThanOrEqual(2);
    expect(await stored('SWSOUTH0000001')).toBe(1);
    expect(await stored('SWSOUTH0000002')).toBe(2);
    expect(await refreshCardStatuses(s.ctx)).toBe(0);
    // Time passes: the overdue card leaves its grace.
    await setCard('SWSOUTH0000002', { card_expire_at: now - (CARD_GRACE_DAYS + 1) * DAY });
    expect(await refreshCardStatuses(s.ctx)).toBe(1);
    expect(await stored('SWSOUTH0000002')).toBe(3);
  });

  it('the demo seed gives every status, 2G cards, carriers and packages; idempotent', async () => {
    const filled = await seedDemoFlowCards(s);
    expect(filled).toBeGreaterThan(5);
    expect(await seedDemoFlowCards(s)).toBe(0);
    const op = await call('operator', { pagesize: 50, stat: 1 });
    const stat = op.dat!.stat!;
    for (const k of ['normal', 'warning', 'overdue', 'expired', 'unknown']) expect(stat[k]).toBeGreaterThan(0);
    expect(stat.sunset).toBeGreaterThan(0);
    for (const c of op.dat!.collector) {
      expect(c.gprs.operator).not.toBe('');
      expect(c.gprs.ccid).toMatch(/^89\d{18}$/);
    }
  });
});
