import {
  ApiCallError,
  RECHARGE_ORDER_STATUSES,
  RECHARGE_TRANSITIONS,
  type AuthDat,
  type RechargeOrderDetail,
  type RechargeOrderRow,
  type RechargeOrderStatus,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDistribution } from '../../src/demo/seed-distribution.js';
import { demoCcid, seedDemoRechargeOrders } from '../../src/demo/seed-recharge.js';
import { FIXED_NOW, engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';

/**
 * Issue 14 rechargeRemedy (spec §3 "Recharge order", §4 "Recharge"): the operator searches the
 * recharge orders (server-paged), opens one with its cards and remedy history, and corrects its
 * state with a reason — only along RECHARGE_TRANSITIONS, audited, in one transaction, refused
 * when another change came first. Nobody but the operator reaches any of it.
 */
async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

type ListAnswer = { total: number; page: number; pagesize: number; orders: RechargeOrderRow[] };

describe.each(engines)('recharge remedy ($name)', (engine) => {
  let s: TestServer;
  let operator: ApiClient;
  let seq = 0;

  const session = async (usr: string, pwd: string) => {
    const r = await s.login(usr, pwd);
    expect(r.err, usr).toBe(0);
    return s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret });
  };
  const list = (params: Record<string, string | number> = {}) =>
    operator.call('queryRechargeOrders', { pagesize: 100, ...params }) as Promise<ListAnswer>;
  const detail = (id: number) => operator.call('queryRechargeOrder', { id }) as Promise<RechargeOrderDetail>;
  const remedy = (
    id: number,
    from: RechargeOrderStatus,
    status: RechargeOrderStatus,
    reason = 'checked with carrier',
  ) => operator.call('remedyRechargeOrder', { id, from, status, reason });

  /** An order of owner_anna in `status`, one card; created `age` ms before now. */
  const makeOrder = async (status: RechargeOrderStatus, age = 1_000): Promise<number> => {
    seq += 1;
    const anna = await s.ctx.repos.accounts.findByUsr('owner_anna');
    const at = s.clock.now() - age;
    return s.ctx.services.rechargeOrders.repo.insertOrder(
      {
        order_no: `RCTEST${String(seq).padStart(8, '0')}`,
        account_id: anna!.id,
        account_usr: 'owner_anna',
        vendor_id: null,
        months: 6,
        package: 'EU-50MB',
        amount_minor: 900,
        discount_minor: 0,
        currency: 'EUR',
        method: 'card',
        channel: 'sandbox',
        area: 'international',
        status,
        created_at: at,
        paid_at: ['unpaid', 'expired'].includes(status) ? null : at + 1,
        finished_at: ['success', 'failed', 'expired'].includes(status) ? at + 2 : null,
        updated_at: at,
      },
      [
        {
          pn: `SWTEST${String(seq).padStart(8, '0')}`,
          ccid: `8949000000000${String(seq).padStart(7, '0')}`,
          load_count: 2,
        },
      ],
    );
  };
  const statusOf = async (id: number) => (await detail(id)).order.status;
  const remedyRows = async (id: number) =>
    s.ctx.db.selectFrom('recharge_order_remedies').selectAll().where('order_id', '=', id).execute();
  const auditOf = async (id: number) =>
    s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'recharge_order')
      .where('entity_id', '=', String(id))
      .execute();

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    await seedDistribution({ ctx: s.ctx });
    expect(await seedDemoRechargeOrders({ ctx: s.ctx })).toBe(8);
    expect(await seedDemoRechargeOrders({ ctx: s.ctx })).toBe(0); // idempotent
    operator = await session('operator', 'Operator_2026');
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('the demo seed: orders in every state on the demo dataloggers, which get CCIDs', async () => {
    const { total, orders } = await list();
    expect(total).toBe(8);
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(RECHARGE_ORDER_STATUSES));
    const batch = orders.find((o) => o.items === 2 && o.status === 'success')!;
    expect(batch).toMatchObject({ currency: 'CNY', amount: 12000, area: 'mainland', method: 'scan', remedies: 1 });
    expect(batch.vendorUsr).toBe('sunmaker');
    const dl = await s.ctx.db
      .selectFrom('dataloggers')
      .select('ccid')
      .where('pn', '=', 'SWNORTH0000001')
      .executeTakeFirst();
    expect(dl?.ccid).toBe(demoCcid('SWNORTH0000001', 'international'));
    expect(dl?.ccid).toMatch(/^8949\d{16}$/);
  });

  it('search by order number, PN, CCID and account; filters; time range; server paging newest first', async () => {
    const all = (await list()).orders;
    const one = all[3]!;
    expect((await list({ search: one.orderNo })).orders.map((o) => o.id)).toEqual([one.id]);
    expect((await list({ search: one.orderNo.slice(2, 12).toLowerCase() })).total).toBeGreaterThanOrEqual(1);
    const southOrders = (await list({ search: 'swsouth0000001' })).orders;
    expect(southOrders.length).toBe(3);
    expect(southOrders.every((o) => o.accountUsr === 'owner_ben')).toBe(true);
    const ccid = demoCcid('SWNORTH0000201', 'mainland');
    expect((await list({ search: ccid })).orders.map((o) => o.pns.includes('SWNORTH0000201'))).toEqual([true, true]);
    expect((await list({ search: 'dealer_north' })).total).toBe(3);
    expect((await list({ search: 'nobody%' })).total).toBe(0);
    expect((await list({ status: 'overdue' })).orders.map((o) => o.status)).toEqual(['overdue']);
    expect((await list({ area: 'mainland' })).total).toBe(3);
    expect((await list({ method: 'paypal' })).total).toBe(2);
    expect((await list({ status: 'success', area: 'international' })).total).toBe(1);
    const now = s.clock.now();
    // created within the last day: unpaid (40 min), paid (3 h), recharging (10 h)
    expect((await list({ start: now - 86_400_000, end: now })).orders.map((o) => o.status)).toEqual([
      'unpaid',
      'paid',
      'recharging',
    ]);
    expect((await list({ end: now - 30 * 86_400_000 })).orders.map((o) => o.status)).toEqual(['success', 'success']);
    const p0 = await list({ pagesize: 3, page: 0 });
    const p1 = await list({ pagesize: 3, page: 1 });
    const p2 = await list({ pagesize: 3, page: 2 });
    expect([p0.total, p0.orders.length, p1.orders.length, p2.orders.length]).toEqual([8, 3, 3, 2]);
    const ids = [...p0.orders, ...p1.orders, ...p2.orders].map((o) => o.id);
    expect(new Set(ids).size).toBe(8);
    const times = [...p0.orders, ...p1.orders, ...p2.orders].map((o) => o.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await errOf(list({ status: 'lost' }))).toBe(6);
  });

  it('detail: the cards as ordered and the remedy history; 372 for an unknown order', async () => {
    const batch = (await list({ area: 'mainland', status: 'success' })).orders[0]!;
    const d = await detail(batch.id);
    expect(d.items.map((i) => i.pn).sort()).toEqual(['SWNORTH0000201', 'SWNORTH0000202']);
    expect(
      d.items.every((i) => i.ccid.startsWith('8986') && i.creditState === 'pending' && i.cardStatus === 'normal'),
    ).toBe(true);
    expect(d.remedies).toMatchObject([{ from: 'overdue', to: 'success', operator: 'operator' }]);
    expect(await errOf(detail(987654))).toBe(372);
  });

  it('every transition the table allows is made, recorded, audited and timed', async () => {
    for (const from of RECHARGE_ORDER_STATUSES) {
      for (const to of RECHARGE_TRANSITIONS[from]) {
        const id = await makeOrder(from);
        const reason = `fix ${from} to ${to}`;
        s.clock.advance(1_000);
        expect(await remedy(id, from, to, `  ${reason}  `), `${from}->${to}`).toEqual({ status: to });
        const d = await detail(id);
        expect(d.order.status).toBe(to);
        expect(d.remedies).toMatchObject([{ from, to, reason, operator: 'operator', at: s.clock.now() }]);
        expect(d.order.remedies).toBe(1);
        if (['success', 'failed', 'expired'].includes(to)) expect(d.order.finishedAt).toBe(s.clock.now());
        else expect(d.order.finishedAt).toBeNull();
        if (to === 'paid') expect(d.order.paidAt).not.toBeNull();
        expect(d.items.every((i) => i.creditState === (to === 'success' ? 'pending' : 'none'))).toBe(true);
        const audit = await auditOf(id);
        expect(audit).toHaveLength(1);
        expect(audit[0]).toMatchObject({ usr: 'operator', action: 'remedyRechargeOrder' });
        expect(JSON.parse(audit[0]!.before!)).toMatchObject({ status: from });
        expect(JSON.parse(audit[0]!.after!)).toMatchObject({ status: to, reason });
      }
    }
  });

  it('success goes through the completion seam: the cards marked pending, recorded for issue 15', async () => {
    const id = await makeOrder('recharging');
    await remedy(id, 'recharging', 'success');
    const credit = await s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'recharge_order_credit')
      .where('entity_id', '=', String(id))
      .execute();
    expect(credit).toHaveLength(1);
    expect(JSON.parse(credit[0]!.after!)).toMatchObject({ source: 'remedy', renewal: 'pending', marked: 1, months: 6 });
  });

  it('every transition the table forbids is refused with 8 and changes nothing; the same state is 271', async () => {
    for (const from of RECHARGE_ORDER_STATUSES) {
      const id = await makeOrder(from);
      for (const to of RECHARGE_ORDER_STATUSES) {
        if (RECHARGE_TRANSITIONS[from].includes(to)) continue;
        expect(await errOf(remedy(id, from, to)), `${from}->${to}`).toBe(to === from ? 271 : 8);
      }
      expect(await statusOf(id)).toBe(from);
      expect(await remedyRows(id)).toHaveLength(0);
      expect(await auditOf(id)).toHaveLength(0);
    }
    expect(RECHARGE_TRANSITIONS.success).toEqual([]);
  });

  it('a stale state is refused (14); of two operators remedying at once exactly one wins', async () => {
    const id = await makeOrder('paid');
    await remedy(id, 'paid', 'recharging');
    expect(await errOf(remedy(id, 'paid', 'failed'))).toBe(14);
    expect(await statusOf(id)).toBe('recharging');

    const second = await session('operator', 'Operator_2026');
    for (let round = 0; round < 3; round += 1) {
      const race = await makeOrder('recharging');
      const outcomes = await Promise.all([
        errOf(
          operator.call('remedyRechargeOrder', { id: race, from: 'recharging', status: 'success', reason: 'a' + 'x' }),
        ),
        errOf(
          second.call('remedyRechargeOrder', { id: race, from: 'recharging', status: 'failed', reason: 'b' + 'y' }),
        ),
      ]);
      expect(outcomes.sort()).toEqual([0, 14]);
      const rows = await remedyRows(race);
      expect(rows).toHaveLength(1);
      expect(await statusOf(race)).toBe(rows[0]!.to_status);
      expect(await auditOf(race)).toHaveLength(1);
    }
  });

  it('a reason is required (2–500 characters after trimming); 372 for an unknown order', async () => {
    const id = await makeOrder('unpaid');
    const call = (p: Record<string, unknown>) => errOf(operator.call('remedyRechargeOrder', p as never));
    expect(await call({ id, from: 'unpaid', status: 'paid' })).not.toBe(0);
    expect(await call({ id, from: 'unpaid', status: 'paid', reason: '   ' })).toBe(6);
    expect(await call({ id, from: 'unpaid', status: 'paid', reason: ' x ' })).toBe(6);
    expect(await call({ id, from: 'unpaid', status: 'paid', reason: 'x'.repeat(501) })).toBe(6);
    expect(await call({ id, from: 'unpaid', status: 'settled', reason: 'ok ok' })).toBe(6);
    expect(await statusOf(id)).toBe('unpaid');
    expect(await errOf(remedy(987654, 'unpaid', 'paid'))).toBe(372);
  });

  it('operator only: a manufacturer, a distributor and an owner get 11 and change nothing', async () => {
    const id = await makeOrder('unpaid');
    for (const [usr, pwd] of [
      ['sunmaker', 'Maker_2026'],
      ['dealer_north', 'Dealer_2026'],
      ['owner_anna', 'Owner_2026'],
    ] as const) {
      const c = await session(usr, pwd);
      expect(await errOf(c.call('queryRechargeOrders', {})), usr).toBe(11);
      expect(await errOf(c.call('queryRechargeOrder', { id })), usr).toBe(11);
      expect(
        await errOf(c.call('remedyRechargeOrder', { id, from: 'unpaid', status: 'paid', reason: 'mine' })),
        usr,
      ).toBe(11);
    }
    expect(await statusOf(id)).toBe('unpaid');
    expect(await remedyRows(id)).toHaveLength(0);
  });
});
