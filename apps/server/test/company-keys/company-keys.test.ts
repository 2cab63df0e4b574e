import { createHash } from 'node:crypto';
import {
  ApiCallError,
  DEFAULT_COMPANY_KEYS,
  type AuthDat,
  type CompanyKeyClient,
  type CompanyKeyRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePairs, engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';

/**
 * Issue 14, KEYList (spec §3 "Key entry", §5): company keys are managed data, seeded from
 * COMPANY_KEYS; the operator lists, adds, edits, enables and disables them (audited, the key
 * never stored, answered or logged); a disabled key stops sign-ins at once on every server
 * instance sharing the database, and re-enabling restores them.
 */
const SEED_KEY = 'SeedKey_ABCDEFGH';
const NEW_KEY = 'NewKey_0123456zz';
const REPLACED_KEY = 'Replaced_987654q';

const entry = (
  over: Partial<Record<'company' | 'version' | 'domain' | 'contact' | 'description' | 'hostname', string>> & {
    client?: CompanyKeyClient;
  } = {},
) => ({
  company: 'Aurora Solar',
  version: '3.2.1',
  client: 'android' as const,
  domain: 'aurora.example',
  contact: 'ops@aurora.example',
  description: 'Aurora app, Android',
  enabled: true,
  hostname: 'app.aurora.example',
  ...over,
});

const sha1 = (v: string) => createHash('sha1').update(v, 'utf8').digest('hex');
let saltSeq = 0;

/**
 * The vendor's `reg` up to its company-key check (the sign is verified first, then the key):
 * 15 when the key is refused, another code (a later rule) when it is accepted.
 */
async function regErr(s: TestServer, companyKey: string): Promise<number> {
  const pwd = 'ab'.repeat(40);
  const tail = `&action=reg${encodePairs({ usr: 'x', pwd, sn: 'SWNOPE00000001', 'company-key': companyKey, source: '0' })}`;
  saltSeq += 1;
  const salt = String(s.clock.now() + saltSeq);
  const sign = sha1(salt + pwd + tail);
  return (await s.request<{ err: number }>(`/public/?sign=${sign}&salt=${salt}${tail}`)).body.err;
}

async function errOf(p: Promise<unknown>): Promise<number> {
  return p.then(
    () => 0,
    (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
  );
}

describe.each(engines)('company keys ($name)', (engine) => {
  let s: TestServer;
  let other: TestServer | undefined;
  let operator: ApiClient;
  let maker: ApiClient;

  const login = async (server: TestServer, usr: string, pwd: string, companyKey?: string) =>
    server.login(usr, pwd, companyKey === undefined ? {} : { companyKey });
  const session = async (usr: string, pwd: string) => {
    const r = await login(s, usr, pwd);
    expect(r.err, usr).toBe(0);
    return s.api({ token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret });
  };
  const list = (params: Record<string, string | number> = {}) =>
    operator.call('queryCompanyKeyList', { pagesize: 100, ...params }) as Promise<{
      total: number;
      keys: CompanyKeyRow[];
    }>;

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { companyKeys: [...DEFAULT_COMPANY_KEYS, SEED_KEY] } });
    operator = await session('operator', 'Operator_2026');
    maker = await session('sunmaker', 'Maker_2026');
  }, 60_000);
  afterAll(async () => {
    await other?.stop();
    await s?.stop();
  });

  it('the environment seeds the table: hints only, no key stored; a seeded key signs in', async () => {
    const { keys, total } = await list();
    expect(total).toBe(3);
    expect(keys.map((k) => k.keyHint).sort()).toEqual(['8Mkn', 'CDEF', 'EFGH']);
    expect(keys.every((k) => k.seeded && k.enabled && k.updatedBy === '')).toBe(true);
    const stored = JSON.stringify(await s.ctx.db.selectFrom('company_keys').selectAll().execute());
    for (const k of [...DEFAULT_COMPANY_KEYS, SEED_KEY]) expect(stored).not.toContain(k);
    expect((await login(s, 'operator', 'Operator_2026', SEED_KEY)).err).toBe(0);
    expect((await login(s, 'operator', 'Operator_2026', 'Unknown_key_0000')).err).toBe(15);
  });

  it('operator only: a manufacturer gets err 11 for every key action', async () => {
    expect(await errOf(maker.call('queryCompanyKeyList', {}))).toBe(11);
    expect(await errOf(maker.call('addCompanyKey', { ...entry(), 'company-key': NEW_KEY }))).toBe(11);
    expect(await errOf(maker.call('setCompanyKeyEnabled', { id: 1, enabled: false }))).toBe(11);
    expect(await errOf(maker.call('editCompanyKey', { id: 1, ...entry() }))).toBe(11);
    expect((await login(s, 'operator', 'Operator_2026', NEW_KEY)).err).toBe(15);
  });

  it('validation of spec §5: 16-byte key, every field required, host names, company 2-64', async () => {
    const add = (p: Record<string, unknown>) => errOf(operator.call('addCompanyKey', p as never));
    expect(await add({ ...entry(), 'company-key': 'short' })).toBe(6);
    expect(await add({ ...entry(), 'company-key': '0123456789ABCDEF0' })).toBe(6);
    expect(await add({ ...entry({ company: 'A' }), 'company-key': NEW_KEY })).toBe(6);
    expect(await add({ ...entry({ hostname: 'bad host/' }), 'company-key': NEW_KEY })).toBe(6);
    expect(await add({ ...entry(), client: 'fax', 'company-key': NEW_KEY })).toBe(6);
    const { hostname: _h, ...noHost } = entry();
    expect(await add({ ...noHost, 'company-key': NEW_KEY })).not.toBe(0);
    const { description: _d, ...noDesc } = entry();
    expect(await add({ ...noDesc, 'company-key': NEW_KEY })).not.toBe(0);
    expect(await add(entry())).not.toBe(0); // no key
    expect(await add({ ...entry(), 'company-key': SEED_KEY })).toBe(14); // an existing key
    expect((await list()).total).toBe(3);
  });

  it('add, then disable: logins with the key stop at once, on a second instance too; re-enable restores', async () => {
    const { id } = await operator.call('addCompanyKey', { ...entry(), 'company-key': NEW_KEY });
    const row = (await list()).keys.find((k) => k.id === id)!;
    expect(row).toMatchObject({
      company: 'Aurora Solar',
      client: 'android',
      keyHint: '56zz',
      enabled: true,
      seeded: false,
      updatedBy: 'operator',
    });
    expect(JSON.stringify(row)).not.toContain(NEW_KEY);
    expect((await login(s, 'sunmaker', 'Maker_2026', NEW_KEY)).err).toBe(0);

    // a second app instance on the same database (restarts seed again: idempotent)
    other = await startTestServer(engine, {
      shareWith: s,
      seed: false,
      config: { companyKeys: [...DEFAULT_COMPANY_KEYS, SEED_KEY] },
    });
    expect((await login(other, 'sunmaker', 'Maker_2026', NEW_KEY)).err).toBe(0);
    expect((await list()).total).toBe(4);

    await operator.call('setCompanyKeyEnabled', { id, enabled: false });
    expect((await login(s, 'sunmaker', 'Maker_2026', NEW_KEY)).err).toBe(15);
    expect((await login(other, 'sunmaker', 'Maker_2026', NEW_KEY)).err).toBe(15);
    // remember-me sign-in carries the key too
    expect(await errOf(s.api().call('authByRememberToken', { rem: 'ab'.repeat(32), 'company-key': NEW_KEY }))).toBe(15);
    expect((await login(s, 'sunmaker', 'Maker_2026')).err).toBe(0); // other keys unaffected
    expect((await list({ enabled: 0 })).keys.map((k) => k.id)).toEqual([id]);
    // `reg` (sign-up by PN) checks the same table
    expect(await regErr(s, NEW_KEY)).toBe(15);
    expect(await regErr(other, NEW_KEY)).toBe(15);

    await operator.call('setCompanyKeyEnabled', { id, enabled: true });
    expect((await login(s, 'sunmaker', 'Maker_2026', NEW_KEY)).err).toBe(0);
    expect((await login(other, 'sunmaker', 'Maker_2026', NEW_KEY)).err).toBe(0);
    expect(await regErr(s, NEW_KEY)).not.toBe(15);
    expect(await regErr(other, NEW_KEY)).not.toBe(15);
  });

  it('a disabled seeded key stays disabled across a restart (the seed never re-enables)', async () => {
    const seeded = (await list({ search: 'EFGH' })).keys[0]!;
    await operator.call('setCompanyKeyEnabled', { id: seeded.id, enabled: false });
    expect((await login(s, 'operator', 'Operator_2026', SEED_KEY)).err).toBe(15);
    await s.ctx.services.companyKeys.seed([SEED_KEY]);
    expect((await list({ search: 'EFGH' })).keys[0]!.enabled).toBe(false);
    expect((await login(s, 'operator', 'Operator_2026', SEED_KEY)).err).toBe(15);
    await operator.call('setCompanyKeyEnabled', { id: seeded.id, enabled: true });
    expect((await login(s, 'operator', 'Operator_2026', SEED_KEY)).err).toBe(0);
  });

  it('edit: fields change, a replaced key stops and the new one works; 12, 14 and 271', async () => {
    const id = (await list({ search: 'aurora' })).keys[0]!.id;
    await operator.call('editCompanyKey', { id, ...entry({ version: '3.3.0' }), 'company-key': REPLACED_KEY });
    expect((await login(s, 'sunmaker', 'Maker_2026', NEW_KEY)).err).toBe(15);
    expect((await login(s, 'sunmaker', 'Maker_2026', REPLACED_KEY)).err).toBe(0);
    expect((await list({ search: 'aurora' })).keys[0]).toMatchObject({ version: '3.3.0', keyHint: '654q' });
    expect(await errOf(operator.call('editCompanyKey', { id, ...entry({ version: '3.3.0' }) }))).toBe(271);
    expect(await errOf(operator.call('editCompanyKey', { id: 999999, ...entry() }))).toBe(12);
    expect(await errOf(operator.call('editCompanyKey', { id, ...entry(), 'company-key': SEED_KEY }))).toBe(14);
    expect(await errOf(operator.call('setCompanyKeyEnabled', { id: 999999, enabled: false }))).toBe(12);
  });

  it('search and server paging', async () => {
    for (const [i, c] of ['Borealis', 'Cirrus', 'Borealis Two'].entries())
      await operator.call('addCompanyKey', {
        ...entry({ company: c, client: 'ios' }),
        'company-key': `PagingKey_${i}ABCDE`,
      });
    expect((await list({ search: 'borealis' })).total).toBe(2);
    expect((await list({ client: 'ios' })).total).toBe(3);
    const page0 = await list({ pagesize: 2, page: 0 });
    const page1 = await list({ pagesize: 2, page: 1 });
    expect(page0.total).toBe(7);
    expect(page0.keys).toHaveLength(2);
    expect(page1.keys[0]!.id).toBeLessThan(page0.keys[1]!.id);
  });

  it('writes are audited before → after with the hint only; no key in the audit or the action log', async () => {
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'company_key')
      .orderBy('id')
      .execute();
    const actions = audit.map((a) => a.action);
    expect(actions).toContain('addCompanyKey');
    expect(actions).toContain('setCompanyKeyEnabled');
    expect(actions).toContain('editCompanyKey');
    expect(actions.filter((a) => a === 'internal')).toHaveLength(3); // the seed
    const disable = audit.find((a) => a.action === 'setCompanyKeyEnabled')!;
    expect(disable.usr).toBe('operator');
    expect(JSON.parse(disable.before!)).toEqual({ enabled: true });
    expect(JSON.parse(disable.after!)).toEqual({ enabled: false });
    const edit = audit.find((a) => a.action === 'editCompanyKey')!;
    expect(JSON.parse(edit.before!)).toMatchObject({ version: '3.2.1', keyHint: '56zz' });
    expect(JSON.parse(edit.after!)).toMatchObject({ version: '3.3.0', keyHint: '654q', keyReplaced: true });
    await s.ctx.services.actionLog.flush();
    const logged = JSON.stringify([audit, await s.ctx.db.selectFrom('action_log').selectAll().execute()]);
    for (const k of [NEW_KEY, REPLACED_KEY, SEED_KEY, ...DEFAULT_COMPANY_KEYS]) expect(logged).not.toContain(k);
  });
});
