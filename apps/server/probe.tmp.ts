import { createApiClient } from '@sunwatch/protocol';
const base = 'http://127.0.0.1:18931/public/';
async function as(usr: string, pwd: string) {
  let sess: { secret: string; token: string } | undefined;
  const c = createApiClient({ baseUrl: base, companyKey: 'bnrl_frRFjEz8Mkn', getSession: () => sess, getLocale: () => 'en_US' });
  const r = await c.login(usr, pwd);
  sess = { secret: (r as any).secret, token: (r as any).token };
  return c;
}
const what = process.argv[2] ?? 'list';
for (const [u, p] of [['owner_anna', 'Owner_2026'], ['owner_ben', 'Owner_2026']]) {
  const c = await as(u!, p!);
  const l = await c.call('webQueryDeviceEs', { page: 0, pagesize: 20 } as any);
  for (const d of l.device) {
    console.log(JSON.stringify(d));
    const k = { pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn };
    if (what === 'all') {
      console.log(' stat', JSON.stringify(await c.call('webQueryDeviceStatistic', k as any)));
      try { console.log(' flow', JSON.stringify(await c.call('webQueryDeviceEnergyFlowEs', k as any))); } catch (e) { console.log(' flow err', String(e)); }
      console.log(' info', JSON.stringify(await c.call('queryDeviceInfo', k as any)));
    }
  }
  const pl = await c.call('webQueryPlants' as any, { page: 0, pagesize: 10 } as any).catch((e) => String(e));
  console.log('plants', JSON.stringify(pl).slice(0, 1500));
}
