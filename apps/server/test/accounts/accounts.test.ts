import type { AccountInfoDat, AuthDat, Envelope } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';

const PASSWORDS: Record<string, string> = {
  operator: 'Operator_2026',
  sunmaker: 'Maker_2026',
  dealer_north: 'Dealer_2026',
  dealer_south: 'Dealer_2026',
  north_ops: 'SubAdmin_2026',
  group_east: 'Group_2026',
  owner_anna: 'Owner_2026',
  owner_ben: 'Owner_2026',
  viewer_cara: 'Viewer_2026',
};

describe.each(engines)('accounts and the tenant tree ($name)', (engine) => {
  let s: TestServer;
  const sessions = new Map<string, AuthDat>();
  const uid = new Map<string, number>();

  beforeAll(async () => {
    s = await startTestServer(engine);
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const res = await s.login(usr, pwd);
      expect(res.err, usr).toBe(0);
      sessions.set(usr, res.dat!);
      uid.set(usr, res.dat!.uid);
    }
  });
  afterAll(async () => {
    await s?.stop();
  });

  const info = (who: string, target?: string) =>
    s.call<AccountInfoDat>(sessions.get(who)!, 'queryAccountInfo', target ? { uid: uid.get(target)! } : {});

  it('seeds the demo tree with the roles of docs/contracts.md', () => {
    expect(Object.fromEntries([...sessions].map(([u, d]) => [u, d.role]))).toEqual({
      operator: 15,
      sunmaker: 1,
      dealer_north: 2,
      dealer_south: 2,
      north_ops: 2,
      group_east: 3,
      owner_anna: 0,
      owner_ben: 0,
      viewer_cara: 5,
    });
  });

  it('returns the vendor record of the calling account', async () => {
    const res = await info('owner_anna');
    expect(res.err).toBe(0);
    const dat = res.dat!;
    expect(dat).toMatchObject({ uid: uid.get('owner_anna'), usr: 'owner_anna', role: 0, enable: true, bomb: false });
    for (const k of ['mobile', 'email', 'qname', 'photo', 'qq', 'wx', 'cname', 'caddr', 'ctel', 'desc', 'lastAtuhAddr']) {
      expect(typeof (dat as unknown as Record<string, unknown>)[k], k).toBe('string');
    }
    expect(dat.gts).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(dat.lastAtuhTs).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(dat.lastAtuhAddr).toBe('127.0.0.1');
    expect(dat.permission).toBeUndefined();
    expect(dat.vendor).toBeUndefined();
    expect((await info('sunmaker')).dat!.vendor).toBe('SW');
  });

  it('returns permission[] for role 2: all for a distributor, the granted modules for a sub-administrator', async () => {
    const dealer = (await info('dealer_north')).dat!;
    expect(dealer.dist).toBeDefined();
    expect(dealer.permission!.every((p) => p.isCheck)).toBe(true);

    const sub = (await info('north_ops')).dat!;
    const checked = sub.permission!.filter((p) => p.isCheck).map((p) => p.action);
    expect(checked.sort()).toEqual(['alarm_manag', 'device_manag']);
    const device = sub.permission!.find((p) => p.action === 'device_manag')!;
    expect(device.first_menus.every((m) => m.isCheck)).toBe(true);
    expect(device.buttons.every((b) => b.isCheck)).toBe(true);
    const overview = sub.permission!.find((p) => p.action === 'overview')!;
    expect(overview).toMatchObject({ isCheck: false });
    expect(Object.keys(overview)).toEqual(['action', 'isCheck', 'buttons', 'first_menus', 'second_menus']);
  });

  const cases: Array<[string, string, number]> = [
    // [caller, target, expected err]
    ['dealer_north', 'owner_anna', 0],
    ['dealer_north', 'viewer_cara', 0],
    ['dealer_north', 'owner_ben', 11],
    ['dealer_north', 'dealer_south', 11],
    ['dealer_north', 'sunmaker', 11],
    ['dealer_south', 'owner_anna', 11],
    ['owner_anna', 'viewer_cara', 0],
    ['owner_anna', 'owner_ben', 11],
    ['owner_anna', 'dealer_north', 11],
    ['viewer_cara', 'owner_anna', 11],
    ['sunmaker', 'owner_ben', 0],
    ['sunmaker', 'operator', 11],
    ['operator', 'owner_ben', 0],
    ['group_east', 'owner_anna', 0],
    ['group_east', 'viewer_cara', 0],
    ['group_east', 'dealer_north', 0],
    ['group_east', 'owner_ben', 11],
    ['group_east', 'dealer_south', 11],
    // north_ops has no account-management permission: only its own record (security finding 2).
    ['north_ops', 'owner_anna', 11],
    ['north_ops', 'viewer_cara', 11],
    ['north_ops', 'dealer_north', 11],
    ['north_ops', 'owner_ben', 11],
    ['north_ops', 'north_ops', 0],
  ];
  it.each(cases)('queryAccountInfo: %s asking for %s → err %i', async (caller, target, err) => {
    const res = await info(caller, target);
    expect(res.err).toBe(err);
    if (err === 0) expect(res.dat!.usr).toBe(target);
    else expect(res).toEqual({ err: 11, desc: 'ERR_NO_PERMISSION', msg: expect.any(String) as string });
  });

  it('answers 11 (not 261) for a uid that does not exist, so ids cannot be probed', async () => {
    const res = await s.call<Envelope<never>>(sessions.get('dealer_north')!, 'queryAccountInfo', { uid: 987654 });
    expect(res.err).toBe(11);
  });

  it('seeding again creates nothing new', async () => {
    const { seedDemo } = await import('../../src/demo/seed-demo.js');
    expect(await seedDemo(s.app)).toBe(0);
  });
});
