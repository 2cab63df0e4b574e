import {
  ROLE,
  rc4EncryptHex,
  sha1Hex,
  type AccountInfoDat,
  type AccountListDat,
  type AuthDat,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountAdmin } from '../../src/modules/accounts/account-admin.factory.js';
import type { AccountLinks, CustomRoleRef } from '../../src/modules/accounts/account-links.js';
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
};

type Session = { token: string; secret: string };

/** The wire form of a sub-account password: pwd = RC4(secret, sha1(pwd)), pwdtext = RC4(secret, pwd). */
function pwdParams(session: Session, password: string, secret = session.secret): { pwd: string; pwdtext: string } {
  return { pwd: rc4EncryptHex(secret, sha1Hex(password)), pwdtext: rc4EncryptHex(secret, password) };
}

describe.each(engines)('account management ($name)', (engine) => {
  let s: TestServer;
  let s2: TestServer;
  const sessions = new Map<string, AuthDat>();
  const uid = new Map<string, number>();
  const as = (usr: string): AuthDat => sessions.get(usr)!;
  const call = <T = unknown>(who: string | Session, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(typeof who === 'string' ? as(who) : who, action, params);

  /** Creates a plant owner through the API and returns its uid. */
  async function addOwner(by: string, usr: string, extra: Record<string, string | number> = {}): Promise<number> {
    const res = await call<{ uid: number }>(by, 'addPlantOwner', { usr, ...pwdParams(as(by), 'Owner_2026'), ...extra });
    expect(res.err, JSON.stringify(res)).toBe(0);
    return res.dat!.uid;
  }

  async function auditOf(entityId: number) {
    return s.ctx.db.selectFrom('audit_log').selectAll().where('entity', '=', 'account').where('entity_id', '=', String(entityId)).execute();
  }

  beforeAll(async () => {
    s = await startTestServer(engine);
    s2 = await startTestServer(engine, { shareWith: s, seed: false });
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const res = await s.login(usr, pwd);
      expect(res.err, usr).toBe(0);
      sessions.set(usr, res.dat!);
      uid.set(usr, res.dat!.uid);
    }
  });
  afterAll(async () => {
    await s2?.stop();
    await s?.stop();
  });

  describe('creating accounts', () => {
    it('a distributor creates an owner under itself; the owner signs in with the password', async () => {
      const id = await addOwner('dealer_north', 'acct_owner1', { mobile: '13800000001', email: 'o1@example.com', qname: 'Owner one' });
      const row = (await s.ctx.repos.accounts.findById(id))!;
      expect(row).toMatchObject({ role: ROLE.OWNER, parent_id: uid.get('dealer_north'), created_by: uid.get('dealer_north') });
      expect(row.path).toBe(`${(await s.ctx.repos.accounts.findById(uid.get('dealer_north')!))!.path}${id}/`);
      expect((await s.login('acct_owner1', 'Owner_2026')).err).toBe(0);
      const audit = await auditOf(id);
      expect(audit.map((a) => a.action)).toContain('addPlantOwner');
      const text = JSON.stringify(audit);
      expect(text).not.toMatch(/Owner_2026|pwd|pwd_cipher|data_key/);
    });

    it('a sub-administrator creates accounts under the account it administers (puid only in reach)', async () => {
      // north_ops lacks account_manag: refused by the dispatcher before any handler.
      const denied = await call('north_ops', 'addPlantOwner', { usr: 'acct_ops_owner', ...pwdParams(as('north_ops'), 'Owner_2026') });
      expect(denied.err).toBe(11);
      const res = await call('dealer_north', 'addPlantOwner', {
        usr: 'acct_owner_puid',
        ...pwdParams(as('dealer_north'), 'Owner_2026'),
        puid: uid.get('dealer_south')!,
      });
      expect(res.err).toBe(1027);
      const notAdmin = await call('sunmaker', 'addPlantOwner', {
        usr: 'acct_owner_puid',
        ...pwdParams(as('sunmaker'), 'Owner_2026'),
        puid: uid.get('owner_anna')!,
      });
      expect(notAdmin.err).toBe(1027);
      const ok = await call<{ uid: number }>('sunmaker', 'addPlantOwner', {
        usr: 'acct_owner_puid',
        ...pwdParams(as('sunmaker'), 'Owner_2026'),
        puid: uid.get('dealer_south')!,
        addCollector: 'false',
      });
      expect(ok.err).toBe(0);
      const row = (await s.ctx.repos.accounts.findById(ok.dat!.uid))!;
      expect(row).toMatchObject({ parent_id: uid.get('dealer_south'), created_by: uid.get('sunmaker'), can_add_datalogger: 0 });
    });

    it('checks usernames (21), passwords (16, 17), contact data (19, 20), dealer codes (23), duplicates (24, 519)', async () => {
      const base = (usr: string) => ({ usr, ...pwdParams(as('dealer_north'), 'Owner_2026') });
      expect((await call('dealer_north', 'addPlantOwner', base('a'))).err).toBe(21);
      expect((await call('dealer_north', 'addPlantOwner', base('bad-name'))).err).toBe(21);
      expect((await call('dealer_north', 'addPlantOwner', base('x'.repeat(33)))).err).toBe(21);
      expect((await call('dealer_north', 'addPlantOwner', { ...base('acct_x'), ...pwdParams(as('dealer_north'), 'Owner_2026', 'f'.repeat(40)) })).err).toBe(16);
      for (const weak of ['12345', '123456', 'no spaces!']) {
        expect((await call('dealer_north', 'addPlantOwner', { usr: 'acct_x', ...pwdParams(as('dealer_north'), weak) })).err, weak).toBe(17);
      }
      expect((await call('dealer_north', 'addPlantOwner', { ...base('acct_x'), email: 'not-an-email' })).err).toBe(20);
      expect((await call('dealer_north', 'addPlantOwner', { ...base('acct_x'), mobile: '12ab' })).err).toBe(19);
      expect((await call('dealer_north', 'addPlantOwner', { ...base('acct_x'), mobile: '12345' })).err).toBe(19);
      expect((await call('dealer_north', 'addPlantOwner', base('owner_anna'))).err).toBe(519);
      expect((await call('dealer_north', 'addPlantOwner', base('OWNER_ANNA'))).err).toBe(519);
      expect((await call('sunmaker', 'addDist', { ...base('dealer_north'), ...pwdParams(as('sunmaker'), 'Dealer_2026'), vcode: 'N1' })).err).toBe(24);
      for (const vcode of ['N', 'NORT', 'N1,N1', 'N-1']) {
        expect((await call('sunmaker', 'addDist', { usr: 'acct_dist_x', ...pwdParams(as('sunmaker'), 'Dealer_2026'), vcode })).err, vcode).toBe(23);
      }
      expect((await call('sunmaker', 'addDist', { usr: 'acct_dist_x', ...pwdParams(as('sunmaker'), 'Dealer_2026'), vcode: 'N1', rid: 99 })).err).toBe(368);
      expect(await s.ctx.repos.accounts.findByUsr('acct_x')).toBeUndefined();
      expect(await s.ctx.repos.accounts.findByUsr('acct_dist_x')).toBeUndefined();
    });

    it('no extra parameter changes role, superior, manufacturer or creator (mass assignment)', async () => {
      const res = await call<{ uid: number }>('dealer_north', 'addPlantOwner', {
        usr: 'acct_mass',
        ...pwdParams(as('dealer_north'), 'Owner_2026'),
        role: 15,
        parent_id: uid.get('operator')!,
        admin_of: uid.get('sunmaker')!,
        vendor_code: 'XX',
        created_by: 1,
        status: 0,
      });
      if (res.err === 0) {
        const row = (await s.ctx.repos.accounts.findById(res.dat!.uid))!;
        expect(row).toMatchObject({ role: ROLE.OWNER, parent_id: uid.get('dealer_north'), admin_of: null, vendor_code: null, created_by: uid.get('dealer_north') });
      } else {
        expect(res.err).toBe(6);
        expect(await s.ctx.repos.accounts.findByUsr('acct_mass')).toBeUndefined();
      }
      const edit = await call('dealer_north', 'editAccount', { role: 15, parent_id: 1, qname: 'North' });
      const me = (await s.ctx.repos.accounts.findById(uid.get('dealer_north')!))!;
      expect(me.role).toBe(ROLE.DISTRIBUTOR);
      expect(me.parent_id).toBe(uid.get('sunmaker'));
      expect([0, 6]).toContain(edit.err);
    });

    it('refuses the digest-only password form when PASSWORD_CHANGE_COMPAT is off (SIGN_POLICY=strict)', async () => {
      const { pwd } = pwdParams(as('dealer_north'), 'Owner_2026');
      const config = s.ctx.config as { passwordChangeCompat: boolean };
      const saved = config.passwordChangeCompat;
      try {
        config.passwordChangeCompat = false;
        expect((await call('dealer_north', 'addPlantOwner', { usr: 'acct_digest', pwd })).err).toBe(17);
        config.passwordChangeCompat = true;
        expect((await call('dealer_north', 'addPlantOwner', { usr: 'acct_digest', pwd })).err).toBe(0);
      } finally {
        config.passwordChangeCompat = saved;
      }
    });

    it('never writes the password or its envelopes into the action log', async () => {
      const params = pwdParams(as('dealer_north'), 'Logged_2026');
      expect((await call('dealer_north', 'addPlantOwner', { usr: 'acct_logged', ...params })).err).toBe(0);
      // The action log is written after the answer: wait for the row.
      const logged = async () =>
        (await s.ctx.db.selectFrom('action_log').select('params').where('action', '=', 'addPlantOwner').execute())
          .map((r) => r.params)
          .join('\n');
      await expect.poll(logged, { timeout: 5000 }).toContain('acct_logged');
      const text = await logged();
      expect(text).not.toContain(params.pwd);
      expect(text).not.toContain(params.pwdtext);
    });

    it('addDist creates a dealer with its codes; an owner cannot create dealers', async () => {
      const res = await call('sunmaker', 'addDist', { usr: 'acct_dist1', ...pwdParams(as('sunmaker'), 'Dealer_2026'), vcode: 'e1, e2' });
      expect(res.err).toBe(0);
      const row = (await s.ctx.repos.accounts.findByUsr('acct_dist1'))!;
      expect(row).toMatchObject({ role: ROLE.DISTRIBUTOR, dealer_code: 'E1,E2', parent_id: uid.get('sunmaker'), admin_of: null });
      expect((await call('owner_anna', 'addDist', { usr: 'acct_dist2', ...pwdParams(as('owner_anna'), 'Dealer_2026'), vcode: 'E3' })).err).toBe(11);
    });
  });

  describe('reach', () => {
    it('acts only in the caller subtree: another tenant, a missing id and the caller itself are err 11', async () => {
      for (const target of [uid.get('owner_ben')!, uid.get('dealer_north')!, 987654]) {
        for (const action of ['editSubAccount', 'delAccount', 'querySubUsrPlantOwners']) {
          const res = await call('dealer_north', action, { uid: target, qname: 'hacked' });
          expect(res.err, `${action} ${target}`).toBe(11);
        }
      }
      expect((await s.ctx.repos.accounts.findById(uid.get('owner_ben')!))!.qname).not.toBe('hacked');
    });

    it('disableOrEnableAccount is all or nothing and names the first account only when the caller may see it', async () => {
      const a = await addOwner('dealer_north', 'acct_batch_a');
      const outside = await call('dealer_north', 'disableOrEnableAccount', { uid: `${a},${uid.get('owner_ben')}`, enable: 'false' });
      expect(outside).toMatchObject({ err: 11, desc: 'ERR_NO_PERMISSION' });
      const self = await call('dealer_north', 'disableOrEnableAccount', { uid: `${a},${uid.get('dealer_north')}`, enable: 'false' });
      expect(self).toMatchObject({ err: 11, desc: 'ERR_NO_PERMISSION(dealer_north)' });
      expect((await s.login('acct_batch_a', 'Owner_2026')).err).toBe(0);
    });
  });

  describe('enable and disable', () => {
    it('a disabled account cannot sign in and its token stops at once on another server instance', async () => {
      const id = await addOwner('dealer_north', 'acct_disabled');
      const login = await s.login('acct_disabled', 'Owner_2026');
      expect(login.err).toBe(0);
      const owner = login.dat!;
      expect((await s2.call(owner, 'queryAccountInfo')).err).toBe(0);
      expect((await call('dealer_north', 'disableOrEnableAccount', { uid: String(id), enable: 'false' })).err).toBe(0);
      expect((await s2.call(owner, 'queryAccountInfo')).err).toBe(10);
      expect((await s2.login('acct_disabled', 'Owner_2026')).err).toBe(25);
      const list = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { usr: 'acct_disabled', pagesize: 10 });
      expect(list.dat!.account.map((r) => [r.usr, r.enable])).toEqual([['acct_disabled', false]]);
      expect((await call('dealer_north', 'disableOrEnableAccount', { uid: String(id), enable: 'true' })).err).toBe(0);
      expect((await s2.login('acct_disabled', 'Owner_2026')).err).toBe(0);
      const audit = await auditOf(id);
      expect(audit.filter((a) => a.action === 'disableOrEnableAccount').map((a) => JSON.parse(a.after!))).toEqual([
        { status: 1 },
        { status: 0 },
      ]);
    });
  });

  describe('reset password, edit, add-datalogger permission', () => {
    it('resetAccountPassword sets the password and ends the account sessions', async () => {
      await addOwner('dealer_north', 'acct_reset');
      const before = (await s.login('acct_reset', 'Owner_2026')).dat!;
      const id = before.uid;
      expect((await call('dealer_north', 'resetAccountPassword', { uid: id, ...pwdParams(as('dealer_north'), 'Fresh_2026') })).err).toBe(0);
      expect((await s.call(before, 'queryAccountInfo')).err).toBe(10);
      expect((await s.login('acct_reset', 'Owner_2026')).err).toBe(16);
      expect((await s.login('acct_reset', 'Fresh_2026')).err).toBe(0);
      expect((await call('dealer_south', 'resetAccountPassword', { uid: id, ...pwdParams(as('dealer_south'), 'Fresh_2027') })).err).toBe(11);
    });

    it('editAccount edits only the caller: omitted unchanged, empty cleared, bomb', async () => {
      await addOwner('dealer_north', 'acct_self', { mobile: '13800000002', qname: 'Self', cname: 'Acme' });
      const me = (await s.login('acct_self', 'Owner_2026')).dat!;
      expect((await s.call(me, 'editAccount', { qname: '', email: 'self@example.com', bomb: 'true' })).err).toBe(0);
      const dat = (await s.call<AccountInfoDat>(me, 'queryAccountInfo')).dat!;
      expect(dat).toMatchObject({ qname: '', email: 'self@example.com', mobile: '13800000002', cname: 'Acme', bomb: true });
      expect((await s.call(me, 'editAccount', { email: 'bad' })).err).toBe(20);
      expect((await s.call(me, 'editAccount', { qname: 'x' })).err).toBe(6);
    });

    it('editAccount keeps vendor compatibility for email/mobile but checks format (19/20) and holders (18/26), audited', async () => {
      await addOwner('dealer_north', 'acct_holder', { mobile: '13800000011', email: 'Holder@Example.com' });
      const mine = await addOwner('dealer_north', 'acct_taker', { mobile: '13800000012' });
      const me = (await s.login('acct_taker', 'Owner_2026')).dat!;
      expect((await s.call(me, 'editAccount', { mobile: '13800000011' })).err).toBe(18);
      expect((await s.call(me, 'editAccount', { email: 'holder@example.com' })).err).toBe(26);
      expect((await s.call(me, 'editAccount', { email: 'HOLDER@example.COM', qname: 'Taker' })).err).toBe(26);
      expect((await s.call(me, 'editAccount', { mobile: '12ab' })).err).toBe(19);
      expect((await s.call(me, 'editAccount', { mobile: '123' })).err).toBe(19);
      expect((await s.call(me, 'editAccount', { email: 'x@' })).err).toBe(20);
      // nothing of the refused calls was written
      expect((await s.ctx.repos.accounts.findById(mine))!).toMatchObject({ mobile: '13800000012', email: '', qname: '' });
      // its own value again, a free value, and clearing are fine
      expect((await s.call(me, 'editAccount', { mobile: '13800000012', qname: 'Taker' })).err).toBe(0);
      expect((await s.call(me, 'editAccount', { email: 'taker@example.com', mobile: '13800000013' })).err).toBe(0);
      expect((await s.call(me, 'editAccount', { email: 'Taker@Example.com' })).err).toBe(0);
      expect((await s.call(me, 'editAccount', { email: '', mobile: '' })).err).toBe(0);
      expect((await s.ctx.repos.accounts.findById(mine))!).toMatchObject({ mobile: '', email: '' });
      const audit = await auditOf(mine);
      expect(audit.some((r) => r.action === 'editAccount' && r.after?.includes('taker@example.com'))).toBe(true);
      // a freed address can be taken by another account
      const holder = (await s.login('acct_holder', 'Owner_2026')).dat!;
      expect((await s.call(holder, 'editAccount', { mobile: '13800000013' })).err).toBe(0);
      // the same rule for an administrator editing a subordinate
      expect((await call('dealer_north', 'editSubAccount', { uid: mine, mobile: '13800000013' })).err).toBe(18);
      expect((await call('dealer_north', 'editSubAccount', { uid: mine, email: 'holder@example.com' })).err).toBe(26);
    });

    it('editSubAccount, setAccountAddCollector and editDist change subordinates only', async () => {
      const id = await addOwner('dealer_north', 'acct_edit', { mobile: '13800000003' });
      expect((await call('dealer_north', 'editSubAccount', { uid: id, desc: 'vip', mobile: '' })).err).toBe(0);
      expect((await s.ctx.repos.accounts.findById(id))!).toMatchObject({ description: 'vip', mobile: '' });
      expect((await call('dealer_north', 'setAccountAddCollector', { uid: String(id), enable: 'false' })).err).toBe(0);
      expect((await s.ctx.repos.accounts.findById(id))!.can_add_datalogger).toBe(0);
      const dist = (await s.ctx.repos.accounts.findByUsr('acct_dist1'))!;
      expect((await call('sunmaker', 'editDist', { uid: dist.id, vcode: 'E9', qname: 'Dealer E', ...pwdParams(as('sunmaker'), 'Dealer_2027') })).err).toBe(0);
      expect((await s.ctx.repos.accounts.findById(dist.id))!).toMatchObject({ dealer_code: 'E9', qname: 'Dealer E' });
      expect((await s.login('acct_dist1', 'Dealer_2027')).err).toBe(0);
      expect((await call('sunmaker', 'editDist', { uid: id, qname: 'Not a dealer' })).err).toBe(11);
    });
  });

  describe('delete', () => {
    it('refuses 517 while dataloggers remain, 518 while subordinates remain, 11 for delDist on a non-dealer', async () => {
      expect((await call('dealer_north', 'delAccount', { uid: uid.get('owner_anna')! })).err).toBe(517);
      expect((await call('sunmaker', 'delDist', { uid: uid.get('dealer_north')! })).err).toBe(517);
      const dist = (await s.ctx.repos.accounts.findByUsr('acct_dist1'))!;
      const sub = await addOwner('sunmaker', 'acct_under_dist', { puid: dist.id });
      expect((await call('sunmaker', 'delDist', { uid: dist.id })).err).toBe(518);
      expect((await call('sunmaker', 'delDist', { uid: sub })).err).toBe(11);
      expect((await call('sunmaker', 'delAccount', { uid: sub })).err).toBe(0);
      expect((await call('sunmaker', 'delDist', { uid: dist.id })).err).toBe(0);
      expect(await s.ctx.repos.accounts.findById(dist.id)).toBeUndefined();
    });

    it('removes sessions, plants without dataloggers and viewer links; the account can no longer sign in', async () => {
      const id = await addOwner('dealer_north', 'acct_gone');
      const session = (await s.login('acct_gone', 'Owner_2026')).dat!;
      const now = Date.now();
      const plant = await s.ctx.db
        .insertInto('projects')
        .values({
          owner_id: id, name: 'Empty plant', remark: '', image: '', is_default: 1, country: '', province: '', city: '', county: '',
          district: '', address: '', lon: null, lat: null, tz_offset: 0, nominal_power: 0, install_at: null, installer: '',
          design_company: '', energy_year_estimate: 0, energy_offset: 0, currency: 'EUR', unit_profit: 0, price_buy: 0,
          price_sell: 0, price_use: 0, coal_factor: 0, co2_factor: 0, so2_factor: 0, created_at: now, updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await call('dealer_north', 'delAccount', { uid: id })).err).toBe(0);
      expect(await s.ctx.db.selectFrom('projects').select('id').where('id', '=', plant.id).executeTakeFirst()).toBeUndefined();
      expect(await s.ctx.db.selectFrom('sessions').select('id').where('account_id', '=', id).executeTakeFirst()).toBeUndefined();
      expect((await s.call(session, 'queryAccountInfo')).err).toBe(10);
      expect((await s.login('acct_gone', 'Owner_2026')).err).toBe(261);
      const audit = await auditOf(id);
      expect(audit.some((a) => a.action === 'delAccount' && a.after === null)).toBe(true);
    });
  });

  describe('lists and contact data', () => {
    it('webQueryUsrEs lists the subtree with counts, filters and paging; never the caller or another tenant', async () => {
      const all = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { pagesize: 50 });
      expect(all.err).toBe(0);
      const names = all.dat!.account.map((r) => r.usr);
      expect(names).toContain('owner_anna');
      expect(names).toContain('viewer_cara');
      expect(names).not.toContain('dealer_north');
      expect(names).not.toContain('owner_ben');
      expect(names).not.toContain('dealer_south');
      expect(all.dat!.total).toBe(names.length);
      const anna = all.dat!.account.find((r) => r.usr === 'owner_anna')!;
      const annaDl = await s.ctx.db.selectFrom('dataloggers').select('id').where('owner_id', '=', anna.uid).execute();
      const annaDev = await s.ctx.db.selectFrom('devices').select('id').where('datalogger_id', 'in', annaDl.map((d) => d.id)).execute();
      const annaPlants = await s.ctx.db.selectFrom('projects').select('id').where('owner_id', '=', anna.uid).execute();
      expect(anna).toMatchObject({
        collectors: annaDl.length,
        devices: annaDev.length,
        plants: annaPlants.length,
        parentUsr: 'dealer_north',
        role: 0,
        enable: true,
      });
      expect(annaDl.length).toBeGreaterThan(0);

      const owners = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { role: 0, pagesize: 50 });
      expect(owners.dat!.account.every((r) => r.role === 0)).toBe(true);
      const page0 = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { orderBy: 'ascUsr', pagesize: 2, page: 0 });
      const page1 = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { orderBy: 'ascUsr', pagesize: 2, page: 1 });
      const sorted = [...names].sort();
      expect([...page0.dat!.account, ...page1.dat!.account].map((r) => r.usr)).toEqual(sorted.slice(0, 4));
      const fuzzy = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { usr: 'ANN', pagesize: 50 });
      expect(fuzzy.dat!.account.map((r) => r.usr)).toEqual(['owner_anna']);
      const wildcard = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { usr: '%', pagesize: 50 });
      expect(wildcard.dat!.total).toBe(0);
      const disabled = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { enable: 'false', pagesize: 50 });
      expect(disabled.dat!.account.map((r) => r.usr)).toContain('owner_emil');
      expect(disabled.dat!.account.every((r) => !r.enable)).toBe(true);
      expect((await s.login('owner_emil', 'Owner_2026')).err).toBe(25);
      const ungrouped = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { groupid: '', pagesize: 50 });
      // owner_anna and owner_fay are members of group_east's user group (demo seed).
      expect(ungrouped.dat!.account.map((r) => r.usr)).not.toContain('owner_fay');
      expect(ungrouped.dat!.total).toBe(names.length - 2);
      const dist = await call<AccountListDat>('sunmaker', 'webQueryUsrEs', { dist: 'south', pagesize: 50 });
      expect(dist.dat!.account.map((r) => r.usr)).toContain('owner_ben');
      expect(dist.dat!.account.map((r) => r.usr)).not.toContain('owner_anna');
    });

    it('adminQueryUsrAccount finds by username, e-mail or a datalogger PN held', async () => {
      const pn = (await s.ctx.db.selectFrom('dataloggers').select('pn').where('owner_id', '=', uid.get('owner_anna')!).executeTakeFirstOrThrow()).pn;
      const byPn = await call<AccountListDat>('dealer_north', 'adminQueryUsrAccount', { usr: pn.slice(-6), pagesize: 50 });
      expect(byPn.dat!.account.map((r) => r.usr)).toContain('owner_anna');
      const byMail = await call<AccountListDat>('dealer_north', 'adminQueryUsrAccount', { usr: 'o1@example', pagesize: 50 });
      expect(byMail.dat!.account.map((r) => r.usr)).toEqual(['acct_owner1']);
      const other = await call<AccountListDat>('dealer_south', 'adminQueryUsrAccount', { usr: 'o1@example', pagesize: 50 });
      expect(other.dat!.total).toBe(0);
    });

    it('queryPlantOwners is newest first; querySubUsrPlantOwners is limited to the sub-account', async () => {
      const res = await call<{ plantOwner: AccountInfoDat[]; total: number }>('sunmaker', 'queryPlantOwners', { pagesize: 50 });
      const gts = res.dat!.plantOwner.map((o) => o.uid);
      expect(res.dat!.plantOwner.every((o) => o.role === 0)).toBe(true);
      expect(gts).toEqual([...gts].sort((a, b) => b - a));
      const south = await call<{ plantOwner: AccountInfoDat[] }>('sunmaker', 'querySubUsrPlantOwners', { uid: uid.get('dealer_south')!, pagesize: 50 });
      expect(south.dat!.plantOwner.map((o) => o.usr).sort()).toEqual(['acct_owner_puid', 'owner_ben']);
      const dists = await call<{ dist: AccountInfoDat[] }>('sunmaker', 'queryDists', { pagesize: 50 });
      expect(dists.dat!.dist.map((d) => d.usr).sort()).toEqual(['dealer_north', 'dealer_south']);
    });

    it('querySubUsrPlantOwners as documented (page, pagesize only): the owners under the caller\'s subordinate accounts', async () => {
      type Owners = { plantOwner: AccountInfoDat[]; total: number; page: number; pagesize: number };
      const direct = await addOwner('sunmaker', 'acct_maker_direct');
      const all = await call<Owners>('sunmaker', 'queryPlantOwners', { pagesize: 50 });
      const res = await call<Owners>('sunmaker', 'querySubUsrPlantOwners', { pagesize: 50 });
      expect(res.err, JSON.stringify(res)).toBe(0);
      const names = res.dat!.plantOwner.map((o) => o.usr);
      expect(names).toEqual(expect.arrayContaining(['owner_anna', 'owner_ben', 'owner_dora']));
      expect(names).not.toContain('acct_maker_direct');
      expect(res.dat!.plantOwner.every((o) => o.role === ROLE.OWNER && o.uid !== direct)).toBe(true);
      // the reach of queryPlantOwners without the direct owners, same order (newest first)
      expect(res.dat!.plantOwner.map((o) => o.uid)).toEqual(all.dat!.plantOwner.map((o) => o.uid).filter((u) => u !== direct));
      expect(res.dat!.total).toBe(all.dat!.total - 1);
      // vendor paging: pagesize defaults apply and pages do not overlap
      const p0 = await call<Owners>('sunmaker', 'querySubUsrPlantOwners', { page: 0, pagesize: 1 });
      const p1 = await call<Owners>('sunmaker', 'querySubUsrPlantOwners', { page: 1, pagesize: 1 });
      expect(p0.dat).toMatchObject({ total: res.dat!.total, page: 0, pagesize: 1 });
      expect(p0.dat!.plantOwner[0]!.uid).not.toBe(p1.dat!.plantOwner[0]!.uid);
      // a distributor whose owners are all its own has none under sub-accounts; nor does another tenant see any
      const north = await call<Owners>('dealer_north', 'querySubUsrPlantOwners', { pagesize: 50 });
      expect(north.dat).toMatchObject({ total: 0, plantOwner: [] });
      // a distributor below dealer_north: its owners are now under a subordinate account of dealer_north
      const sub = await call<{ uid: number }>('dealer_north', 'addDist', { usr: 'acct_sub_dist', ...pwdParams(as('dealer_north'), 'Dealer_2026'), vcode: 'NS1' });
      expect(sub.err, JSON.stringify(sub)).toBe(0);
      const subDist = (await s.ctx.repos.accounts.findByUsr('acct_sub_dist'))!;
      const subSession = (await s.login('acct_sub_dist', 'Dealer_2026')).dat!;
      const o = await s.call<{ uid: number }>(subSession, 'addPlantOwner', { usr: 'acct_sub_owner', ...pwdParams(subSession, 'Owner_2026') });
      expect(o.err, JSON.stringify(o)).toBe(0);
      const north2 = await call<Owners>('dealer_north', 'querySubUsrPlantOwners', { pagesize: 50 });
      expect(north2.dat!.plantOwner.map((r) => r.usr)).toEqual(['acct_sub_owner']);
      // the uid extension still narrows to one subordinate account, and the south tenant sees none of it
      const byUid = await call<Owners>('dealer_north', 'querySubUsrPlantOwners', { uid: subDist.id, pagesize: 50 });
      expect(byUid.dat!.plantOwner.map((r) => r.usr)).toEqual(['acct_sub_owner']);
      const south = await call<Owners>('dealer_south', 'querySubUsrPlantOwners', { pagesize: 50 });
      expect(south.dat!.plantOwner.map((r) => r.usr)).not.toContain('acct_sub_owner');
      const owner = await call<Owners>('owner_anna', 'querySubUsrPlantOwners', { pagesize: 50 });
      expect(owner.dat).toMatchObject({ total: 0, plantOwner: [] });
    });

    it('shows contact data only to those who manage the account, not to a group account reading its members', async () => {
      await s.ctx.repos.accounts.update(uid.get('owner_anna')!, { mobile: '13900000009', email: 'anna@example.com' });
      const byDealer = await call<AccountInfoDat>('dealer_north', 'queryAccountInfo', { uid: uid.get('owner_anna')! });
      expect(byDealer.dat).toMatchObject({ mobile: '13900000009', email: 'anna@example.com', lastAtuhAddr: '127.0.0.1' });
      const byGroup = await call<AccountInfoDat>('group_east', 'queryAccountInfo', { uid: uid.get('owner_anna')! });
      expect(byGroup.dat).toMatchObject({ usr: 'owner_anna', mobile: '', email: '', lastAtuhAddr: '' });
      const own = await call<AccountInfoDat>('owner_anna', 'queryAccountInfo');
      expect(own.dat!.mobile).toBe('13900000009');
      const list = await call<AccountListDat>('group_east', 'webQueryUsrEs', { pagesize: 50 });
      const row = list.dat!.account.find((r) => r.usr === 'owner_anna')!;
      expect(row).toMatchObject({ mobile: '', email: '' });
      // A group account cannot find members by contact data it may not see.
      const search = await call<AccountListDat>('group_east', 'adminQueryUsrAccount', { usr: '13900000009', pagesize: 50 });
      expect(search.dat!.total).toBe(0);
    });

    it('a group account reads its members but changes only the accounts it created', async () => {
      const anna = uid.get('owner_anna')!;
      expect((await call('group_east', 'editSubAccount', { uid: anna, desc: 'by group' })).err).toBe(11);
      const named = await call('group_east', 'disableOrEnableAccount', { uid: String(anna), enable: 'false' });
      expect(named).toMatchObject({ err: 11, desc: 'ERR_NO_PERMISSION(owner_anna)' });
      expect((await call('group_east', 'resetAccountPassword', { uid: anna, ...pwdParams(as('group_east'), 'Group_2027') })).err).toBe(11);
      const own = await addOwner('group_east', 'acct_group_owner');
      expect((await call('group_east', 'editSubAccount', { uid: own, desc: 'mine' })).err).toBe(0);
      expect((await s.ctx.repos.accounts.findById(own))!.parent_id).toBe(uid.get('group_east'));
      const res = await call('group_east', 'addPlantOwner', {
        usr: 'acct_group_owner2',
        ...pwdParams(as('group_east'), 'Owner_2026'),
        puid: uid.get('dealer_north')!,
      });
      expect(res.err).toBe(1027);
    });

    it('a sub-administrator without account_manag gets the no-permission error for every list', async () => {
      for (const action of ['webQueryUsrEs', 'queryPlantOwners', 'queryDists']) {
        expect((await call('north_ops', action, { pagesize: 10 })).err, action).toBe(11);
      }
    });
  });

  describe('related owner', () => {
    it('moves an owner and its viewers under another distributor; 1027 for a non-administrator or one out of reach', async () => {
      const id = await addOwner('sunmaker', 'acct_mover', { puid: uid.get('dealer_north')! });
      const viewer = await s.ctx.services.accounts.create({ usr: 'acct_mover_v', password: 'Viewer_2026', role: ROLE.VIEWER, parentId: id });
      expect((await call('dealer_north', 'relateOwner', { uid: String(id), puid: uid.get('dealer_south')! })).err).toBe(1027);
      expect((await call('sunmaker', 'relateOwner', { uid: String(id), puid: uid.get('owner_anna')! })).err).toBe(1027);
      expect((await call('sunmaker', 'relateOwner', { uid: String(uid.get('dealer_north')), puid: uid.get('dealer_south')! })).err).toBe(1024);
      expect((await call('sunmaker', 'relateOwner', { uid: String(id), puid: uid.get('dealer_south')! })).err).toBe(0);
      const south = (await s.ctx.repos.accounts.findById(uid.get('dealer_south')!))!;
      expect((await s.ctx.repos.accounts.findById(id))!).toMatchObject({ parent_id: south.id, path: `${south.path}${id}/` });
      expect((await s.ctx.repos.accounts.findById(viewer.id))!.path).toBe(`${south.path}${id}/${viewer.id}/`);
      expect((await call('dealer_north', 'queryAccountInfo', { uid: id })).err).toBe(11);
      expect((await call('dealer_south', 'queryAccountInfo', { uid: id })).err).toBe(0);
    });

    it('refuses 276 for an owner holding another manufacturer datalogger', async () => {
      const other = await s.ctx.services.accounts.create({ usr: 'acct_maker2', password: 'Maker_2026', role: ROLE.MANUFACTURER, parentId: uid.get('operator')!, vendorCode: 'OT' });
      const id = await addOwner('sunmaker', 'acct_foreign', { puid: uid.get('dealer_north')! });
      const template = await s.ctx.db.selectFrom('dataloggers').selectAll().where('owner_id', '=', uid.get('owner_anna')!).executeTakeFirstOrThrow();
      const { id: _omit, ...copy } = template;
      await s.ctx.db
        .insertInto('dataloggers')
        .values({ ...copy, pn: 'OTFOREIGN000001', owner_id: id, vendor_id: other.id, project_id: null, device_token_hash: null })
        .execute();
      expect((await call('sunmaker', 'relateOwner', { uid: String(id), puid: uid.get('dealer_south')! })).err).toBe(276);
      expect((await s.ctx.repos.accounts.findById(id))!.parent_id).toBe(uid.get('dealer_north'));
    });
  });

  describe('with custom roles and user groups wired', () => {
    const roles = new Map<number, CustomRoleRef & { admin: number }>();
    const groups = new Map<number, { id: number; name: string; admin: number }>();
    const bound = new Map<number, number>();
    beforeAll(() => {
      const links: AccountLinks = {
        findRole: (admin, rid) => Promise.resolve([...roles.values()].find((r) => r.id === rid && r.admin === admin)),
        findGroup: (admin, id) => Promise.resolve([...groups.values()].find((g) => g.id === id && g.admin === admin)),
        groupAccountOf: (id) => Promise.resolve(bound.get(id)),
        bindGroupAccount: (account, id) => {
          bound.set(id, account);
          return Promise.resolve();
        },
        roleNames: (ids) => Promise.resolve(new Map(ids.filter((i) => roles.has(i)).map((i) => [i, roles.get(i)!.name]))),
        groupNames: (ids) => Promise.resolve(new Map(ids.filter((i) => groups.has(i)).map((i) => [i, groups.get(i)!.name]))),
      };
      const ctx = s.ctx;
      ctx.services.accountAdmin = createAccountAdmin({
        db: ctx.db,
        accountsRepo: ctx.repos.accounts,
        accounts: ctx.services.accounts,
        sessions: ctx.repos.sessions,
        audit: ctx.services.audit,
        now: ctx.now,
        links,
      });
      const north = uid.get('dealer_north')!;
      roles.set(1, { id: 1, name: 'Account clerks', functions: ['account_manag', 'account_list', 'account_add'], hasDataPermission: false, admin: north });
      roles.set(2, { id: 2, name: 'East data', functions: ['overview'], hasDataPermission: true, admin: north });
      roles.set(3, { id: 3, name: 'South role', functions: ['overview'], hasDataPermission: false, admin: uid.get('dealer_south')! });
      groups.set(7, { id: 7, name: 'Hotels', admin: north });
    });

    it('addSubAdmin needs a role (7) of the caller (368) and gives its function points', async () => {
      const base = { usr: 'acct_clerk', ...pwdParams(as('dealer_north'), 'Clerk_2026') };
      expect((await call('dealer_north', 'addSubAdmin', base)).err).toBe(7);
      expect((await call('dealer_north', 'addSubAdmin', { ...base, rid: 3 })).err).toBe(368);
      const res = await call<{ uid: number }>('dealer_north', 'addSubAdmin', { ...base, rid: 1 });
      expect(res.err).toBe(0);
      const row = (await s.ctx.repos.accounts.findById(res.dat!.uid))!;
      expect(row).toMatchObject({ role: ROLE.DISTRIBUTOR, admin_of: uid.get('dealer_north'), parent_id: uid.get('dealer_north'), role_permission_id: 1 });
      const clerk = (await s.login('acct_clerk', 'Clerk_2026')).dat!;
      const list = await s.call<AccountListDat>(clerk, 'webQueryUsrEs', { pagesize: 50 });
      expect(list.err).toBe(0);
      // Without account_detail the sub-administrator sees no contact data.
      expect(list.dat!.account.find((r) => r.usr === 'owner_anna')).toMatchObject({ mobile: '', email: '' });
      expect(list.dat!.account.map((r) => r.usr)).not.toContain('dealer_north');
      const byName = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { usr: 'acct_clerk', pagesize: 5 });
      expect(byName.dat!.account[0]).toMatchObject({ subAdmin: true, rid: 1, roleName: 'Account clerks' });
    });

    it('a dealer cannot be bound to a role with data permissions', async () => {
      const res = await call('dealer_north', 'addDist', { usr: 'acct_subdist', ...pwdParams(as('dealer_north'), 'Dealer_2026'), vcode: 'S1', rid: 2 });
      expect(res.err).toBe(11);
      expect((await call('dealer_north', 'addDist', { usr: 'acct_subdist', ...pwdParams(as('dealer_north'), 'Dealer_2026'), vcode: 'S1', rid: 1 })).err).toBe(0);
    });

    it('one group account per user group: the second is err 13 "this account type already exists"', async () => {
      const first = await call<{ uid: number }>('dealer_north', 'addGroupAccount', { usr: 'acct_hotels', groupid: 7, ...pwdParams(as('dealer_north'), 'Group_2026') });
      expect(first.err).toBe(0);
      expect(bound.get(7)).toBe(first.dat!.uid);
      const second = await call<never>('dealer_north', 'addGroupAccount', { usr: 'acct_hotels2', groupid: 7, ...pwdParams(as('dealer_north'), 'Group_2026') });
      expect(second).toMatchObject({ err: 13, msg: 'Exceeding the limit, this account type already exists' });
      expect((await call('dealer_south', 'addGroupAccount', { usr: 'acct_hotels3', groupid: 7, ...pwdParams(as('dealer_south'), 'Group_2026') })).err).toBe(369);
      const owner = await addOwner('dealer_north', 'acct_grouped', { groupid: 7 });
      const list = await call<AccountListDat>('dealer_north', 'webQueryUsrEs', { groupid: 7, pagesize: 50 });
      expect(list.dat!.account.map((r) => [r.uid, r.group])).toEqual([[owner, 'Hotels']]);
    });
  });
});
