import ExcelJS from 'exceljs';
import {
  ApiCallError,
  type AuthDat,
  type RechargeOrderStatus,
  type RechargeRecordDetail,
  type RechargeRecordRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDistribution } from '../../src/demo/seed-distribution.js';
import { demoCcid, seedDemoRechargeOrders } from '../../src/demo/seed-recharge.js';
import { FIXED_NOW, engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';

/**
 * Issue 15 rechargeRecord: the recharge orders an owner, distributor, group account or
 * manufacturer sees (scoped in SQL: placed in its subtrees, holding its dataloggers' cards, or of
 * its vendor), filtered and paged on the server, one order's cards, and the xlsx export. Demo tree
 * (docs/contracts.md) and the eight demo orders of seed-recharge.ts: owner_anna 2 (SWNORTH0000001),
 * owner_ben 3 (SWSOUTH0000001), dealer_north 3 (its stock SWNORTH000020x / SWMAKER000000x).
 */
async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

type ListAnswer = { total: number; page: number; pagesize: number; orders: RechargeRecordRow[] };
type ExportAnswer = { name: string; mime: string; size: number; rows: number; data: string };

describe.each(engines)('recharge records ($name)', (engine) => {
  let s: TestServer;
  const sessions = new Map<string, ApiClient>();
  let seq = 0;

  const session = async (usr: string, pwd: string) => {
    const r = await s.login(usr, pwd);
    expect(r.err, usr).toBe(0);
    const api = s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret });
    sessions.set(usr, api);
    return api;
  };
  const as = (usr: string) => sessions.get(usr)!;
  const list = (usr: string, params: Record<string, string | number> = {}) =>
    as(usr).call('queryMyRechargeOrders', { pagesize: 100, ...params }) as Promise<ListAnswer>;
  const orderNos = async (usr: string, params: Record<string, string | number> = {}) =>
    (await list(usr, params)).orders.map((o) => o.orderNo).sort();
  const detail = (usr: string, id: number) =>
    as(usr).call('queryMyRechargeOrder', { id }) as Promise<RechargeRecordDetail>;
  const accountId = async (usr: string) => (await s.ctx.repos.accounts.findByUsr(usr))!.id;

  /** An order placed by `usr` (vendor `vendor`), one card `pn`; created `age` ms before now. */
  const makeOrder = async (o: {
    usr: string;
    pn: string;
    vendor?: string;
    status?: RechargeOrderStatus;
    age?: number;
  }): Promise<{ id: number; orderNo: string }> => {
    seq += 1;
    const at = s.clock.now() - (o.age ?? 1_000);
    const orderNo = `RRTEST${String(seq).padStart(8, '0')}`;
    const id = await s.ctx.services.rechargeOrders.repo.insertOrder(
      {
        order_no: orderNo,
        account_id: await accountId(o.usr),
        account_usr: o.usr,
        vendor_id: o.vendor ? await accountId(o.vendor) : null,
        months: 6,
        package: 'EU-50MB',
        amount_minor: 1234,
        discount_minor: 100,
        currency: 'EUR',
        method: 'card',
        channel: 'sandbox',
        area: 'international',
        status: o.status ?? 'unpaid',
        created_at: at,
        paid_at: null,
        finished_at: null,
        updated_at: at,
      },
      [{ pn: o.pn, ccid: `8949000000000${String(seq).padStart(7, '0')}`, load_count: 4, card_status: 1 }],
    );
    return { id, orderNo };
  };

  let all: string[] = [];
  let vendorOnly: { id: number; orderNo: string };
  let foreign: { id: number; orderNo: string };

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    await seedDistribution({ ctx: s.ctx });
    expect(await seedDemoRechargeOrders({ ctx: s.ctx })).toBe(8);
    await session('operator', 'Operator_2026');
    await session('sunmaker', 'Maker_2026');
    await session('dealer_north', 'Dealer_2026');
    await session('dealer_south', 'Dealer_2026');
    await session('group_east', 'Group_2026');
    await session('owner_anna', 'Owner_2026');
    await session('owner_ben', 'Owner_2026');
    await session('viewer_cara', 'Viewer_2026');
    all = (
      (await as('operator').call('queryRechargeOrders', { pagesize: 100 })) as { orders: { orderNo: string }[] }
    ).orders
      .map((o) => o.orderNo)
      .sort();
    expect(all).toHaveLength(8);
    // Placed by the operator (outside every tree) for a card of no known datalogger: only the
    // vendor named on the order sees it (a manufacturer's own orders), and nobody below sees it.
    vendorOnly = await makeOrder({ usr: 'operator', pn: 'SWXFOREIGN0001', vendor: 'sunmaker', age: 5 * 86_400_000 });
    // The same without a vendor: nobody but the operator.
    foreign = await makeOrder({ usr: 'operator', pn: 'SWXFOREIGN0002', age: 6 * 86_400_000 });
  }, 90_000);
  afterAll(async () => {
    await s?.stop();
  });

  const placedBy = async (usrs: string[]) =>
    (
      await s.ctx.db
        .selectFrom('recharge_orders')
        .select('order_no')
        .where('account_usr', 'in', usrs)
        .where('order_no', 'not like', 'RRTEST%')
        .execute()
    )
      .map((r) => r.order_no)
      .sort();

  it('an owner sees the orders it placed and the orders of its dataloggers’ cards, never another owner’s', async () => {
    const anna = await orderNos('owner_anna');
    const ben = await orderNos('owner_ben');
    expect(anna).toEqual(await placedBy(['owner_anna']));
    expect(anna).toHaveLength(2);
    expect(ben).toEqual(await placedBy(['owner_ben']));
    expect(ben).toHaveLength(3);
    expect(anna.filter((n) => ben.includes(n))).toEqual([]);
    // An order placed by the dealer for anna's datalogger's card is anna's too.
    const forAnna = await makeOrder({ usr: 'dealer_north', pn: 'SWNORTH0000001' });
    expect(await orderNos('owner_anna')).toContain(forAnna.orderNo);
    expect(await orderNos('owner_ben')).not.toContain(forAnna.orderNo);
    // …and anna cannot open ben's order: it answers like a missing one.
    const bens = (await list('owner_ben')).orders[0]!;
    expect(await errOf(detail('owner_anna', bens.id))).toBe(372);
    expect(await errOf(detail('owner_anna', 999_999))).toBe(372);
    await s.ctx.db.deleteFrom('recharge_order_items').where('order_id', '=', forAnna.id).execute();
    await s.ctx.db.deleteFrom('recharge_orders').where('id', '=', forAnna.id).execute();
  });

  it('a distributor sees its tree only; a group account its members’; a manufacturer its tree and its vendor’s orders', async () => {
    const north = await orderNos('dealer_north');
    expect(north).toEqual(await placedBy(['dealer_north', 'owner_anna']));
    expect(north).toHaveLength(5);
    expect(await orderNos('dealer_south')).toEqual(await placedBy(['owner_ben']));
    expect(await orderNos('group_east')).toEqual(north);
    const maker = await orderNos('sunmaker');
    expect(maker).toEqual([...all, vendorOnly.orderNo].sort());
    expect(maker).not.toContain(foreign.orderNo);
    for (const usr of ['dealer_north', 'dealer_south', 'group_east', 'owner_anna', 'owner_ben']) {
      const seen = await orderNos(usr);
      expect(seen, usr).not.toContain(vendorOnly.orderNo);
      expect(seen, usr).not.toContain(foreign.orderNo);
      expect(await errOf(detail(usr, vendorOnly.id)), usr).toBe(372);
    }
    expect((await detail('sunmaker', vendorOnly.id)).order.orderNo).toBe(vendorOnly.orderNo);
    expect(await errOf(detail('sunmaker', foreign.id))).toBe(372);
  });

  it('a viewer and the operator are not callers (11)', async () => {
    expect(await errOf(list('viewer_cara'))).toBe(11);
    expect(await errOf(detail('viewer_cara', vendorOnly.id))).toBe(11);
    expect(await errOf(as('viewer_cara').call('exportMyRechargeOrders', {}))).toBe(11);
    expect(await errOf(list('operator'))).toBe(11);
  });

  it('filters (state, area, method, PN/CCID/order number search, creation range), server paging newest first', async () => {
    const rows = (await list('dealer_north')).orders;
    const created = rows.map((o) => o.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const statuses = (await list('dealer_north', { status: 'paid' })).orders;
    expect(statuses.map((o) => o.status)).toEqual(['paid']);
    expect((await list('dealer_north', { area: 'mainland' })).orders.every((o) => o.area === 'mainland')).toBe(true);
    expect((await list('dealer_north', { area: 'mainland' })).total).toBe(3);
    expect((await list('dealer_north', { method: 'card' })).orders.map((o) => o.method)).toEqual([
      'card',
      'card',
      'card',
    ]);
    const one = rows[2]!;
    expect((await list('dealer_north', { search: one.orderNo.toLowerCase() })).orders.map((o) => o.id)).toEqual([
      one.id,
    ]);
    expect((await list('dealer_north', { search: 'swmaker0000002' })).orders.map((o) => o.status)).toEqual(['paid']);
    const ccid = demoCcid('SWNORTH0000201', 'mainland');
    expect((await list('dealer_north', { search: ccid })).total).toBe(2);
    // Another tree's card is not found by search either.
    expect((await list('dealer_north', { search: 'SWSOUTH0000001' })).total).toBe(0);
    expect((await list('dealer_north', { search: '100%' })).total).toBe(0);
    const now = s.clock.now();
    expect((await list('dealer_north', { start: now - 86_400_000, end: now })).orders.map((o) => o.status)).toEqual([
      'unpaid',
      'paid',
    ]);
    const p0 = await list('dealer_north', { pagesize: 2, page: 0 });
    const p1 = await list('dealer_north', { pagesize: 2, page: 1 });
    const p2 = await list('dealer_north', { pagesize: 2, page: 2 });
    expect([p0.total, p0.orders.length, p1.orders.length, p2.orders.length]).toEqual([5, 2, 2, 1]);
    expect([...p0.orders, ...p1.orders, ...p2.orders].map((o) => o.id)).toEqual(rows.map((o) => o.id));
  });

  it('rows carry money, loads, card statuses and ownership; the detail carries the cards, renewal and expiry', async () => {
    const anna = await accountId('owner_anna');
    const rows = (await list('dealer_north')).orders;
    const batch = rows.find((o) => o.status === 'success' && o.items === 2)!;
    expect(batch).toMatchObject({ currency: 'CNY', amount: 12000, discount: 0, area: 'mainland', method: 'scan' });
    expect(batch.pns).toEqual(['SWNORTH0000201', 'SWNORTH0000202']);
    expect(batch.loads.length).toBeGreaterThanOrEqual(1);
    expect(batch.cardStatuses.length).toBeGreaterThanOrEqual(1);
    expect(batch.own).toBe(true);
    expect('remedies' in batch).toBe(false);
    expect(rows.filter((o) => o.accountUid === anna).every((o) => !o.own)).toBe(true);
    const d = await detail('dealer_north', batch.id);
    expect(d.items.map((i) => i.pn)).toEqual(['SWNORTH0000201', 'SWNORTH0000202']);
    expect(d.items.map((i) => i.creditState)).toEqual(['pending', 'pending']);
    expect(d.items[0]!.ccid).toBe(demoCcid('SWNORTH0000201', 'mainland'));
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ card_expire_at: FIXED_NOW + 86_400_000 })
      .where('pn', '=', 'SWNORTH0000201')
      .execute();
    expect((await detail('dealer_north', batch.id)).items[0]!.expireAt).toBe(FIXED_NOW + 86_400_000);
    // An order anna placed for ben's datalogger's card is hers, but that card's expiry is not shown to her.
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ card_expire_at: FIXED_NOW + 2 * 86_400_000 })
      .where('pn', '=', 'SWSOUTH0000001')
      .execute();
    const odd = await makeOrder({ usr: 'owner_anna', pn: 'SWSOUTH0000001' });
    expect((await detail('owner_anna', odd.id)).items.map((i) => [i.pn, i.expireAt])).toEqual([
      ['SWSOUTH0000001', null],
    ]);
    expect((await detail('owner_ben', odd.id)).items.map((i) => i.expireAt)).toEqual([FIXED_NOW + 2 * 86_400_000]);
    await s.ctx.db.deleteFrom('recharge_order_items').where('order_id', '=', odd.id).execute();
    await s.ctx.db.deleteFrom('recharge_orders').where('id', '=', odd.id).execute();
    expect('remedies' in (d as object)).toBe(false);
  });

  it('exports the filtered records as xlsx in the call’s language, times at tz, bounded', async () => {
    const r = (await as('dealer_north').call('exportMyRechargeOrders', {
      area: 'mainland',
      tz: 8 * 3600,
      i18n: 'de_DE',
    })) as ExportAnswer;
    expect(r.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(r.name).toMatch(/^Aufladeverlauf_\d{8}-\d{4}\.xlsx$/);
    expect(r.rows).toBe(3);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(r.data, 'base64') as unknown as ArrayBuffer);
    expect(r.size).toBe(Buffer.from(r.data, 'base64').length);
    const ws = wb.getWorksheet('Aufladeaufträge')!;
    const head = (ws.getRow(1).values as unknown[]).slice(1);
    expect(head.slice(0, 3)).toEqual(['Auftragsnummer', 'Zustand', 'Bestellt von']);
    const rows = [] as unknown[][];
    ws.eachRow((row, n) => {
      if (n > 1) rows.push((row.values as unknown[]).slice(1));
    });
    const shown = (await list('dealer_north', { area: 'mainland' })).orders;
    expect(rows.map((c) => c[0])).toEqual(shown.map((o) => o.orderNo));
    const batch = shown.find((o) => o.items === 2 && o.status === 'success')!;
    const cells = rows.find((c) => c[0] === batch.orderNo)!;
    expect(cells[1]).toBe('Erfolgreich');
    expect(cells[5]).toBe('SWNORTH0000201, SWNORTH0000202');
    expect(cells[9]).toBe(120);
    expect(cells[11]).toBe('CNY');
    expect(cells[12]).toBe('Scan per Chat-App');
    expect(cells[14]).toBe('Festlandchina');
    // Created at UTC instant x shows x + 8 h as its wall clock.
    expect((cells[18] as Date).getTime()).toBe(batch.createdAt + 8 * 3600_000);
    expect(wb.getWorksheet('Export')).toBeDefined();

    // Nothing matches: 264; more than the bound: 13, no file.
    expect(await errOf(as('dealer_north').call('exportMyRechargeOrders', { search: 'nothing-here' }))).toBe(264);
    const svc = s.ctx.services.rechargeRecords;
    const max = svc.maxRows;
    svc.maxRows = 4;
    try {
      expect(await errOf(as('dealer_north').call('exportMyRechargeOrders', {}))).toBe(13);
      const four = (await as('dealer_north').call('exportMyRechargeOrders', { status: 'success' })) as ExportAnswer;
      expect(four.rows).toBe(2);
    } finally {
      svc.maxRows = max;
    }
    // An owner's export holds only its own records.
    const ben = (await as('owner_ben').call('exportMyRechargeOrders', {})) as ExportAnswer;
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(Buffer.from(ben.data, 'base64') as unknown as ArrayBuffer);
    const benRows: unknown[] = [];
    wb2.worksheets[0]!.eachRow((row, n) => {
      if (n > 1) benRows.push((row.values as unknown[])[1]);
    });
    expect(benRows.sort()).toEqual(await placedBy(['owner_ben']));
    expect(wb2.worksheets[0]!.name).toBe('Recharge orders');
  });
});
