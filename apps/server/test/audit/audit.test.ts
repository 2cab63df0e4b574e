import {
  ApiError,
  actionParams,
  defineAction,
  encodePasswordChange,
  result,
  sha1Hex,
  signLogin,
  WEB_COMPANY_KEY,
  type AuthDat,
  type Envelope,
} from '@sunwatch/protocol';
import type { Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuditLogTable } from '../../src/db/schema.js';
import type { ActionInput } from '../../src/http/registry.js';
import { encodePairs, engines, startTestServer, type TestServer } from '../harness.js';
import { installTestActions } from '../test-actions.js';

/**
 * Issue 7: every mutating action runs in one transaction with its audit rows (who, what,
 * before → after, never a secret); a failing handler leaves neither data nor audit rows.
 * Every case runs on SQLite and PostgreSQL.
 */
type Env<T = unknown> = Envelope<T>;
type AuditRow = Selectable<AuditLogTable>;

const ANNA_DEVICE = { pn: 'SWNORTH0000001', devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };

/** Test-only mutating action: creates an account (a repository that opens its own transaction), audits it, then fails if asked. */
const TEST_TX = defineAction({
  name: 'testTxWrite',
  summary: 'test: writes, audits, and throws when fail=1',
  params: actionParams({ usr: z.string(), fail: z.string().optional() }),
  access: { auth: 'signed', permission: null },
  mutates: true,
  result: result<{ id: number }>(),
});

describe.each(engines)('audit log and action transactions ($name)', (engine) => {
  let s: TestServer;
  let seq = 0;
  let uninstall: () => void = () => undefined;

  async function newOwner(password = 'Secret_2026') {
    seq += 1;
    const usr = `audit_${engine.name}_${seq}`;
    const row = await s.ctx.services.accounts.create({ usr, password, role: 0 });
    return { usr, password, id: row.id };
  }

  /** Audit rows written since `afterId`, oldest first. */
  async function auditSince(afterId: number): Promise<AuditRow[]> {
    return s.ctx.db.selectFrom('audit_log').selectAll().where('id', '>', afterId).orderBy('id').execute();
  }

  async function lastAuditId(): Promise<number> {
    const row = await s.ctx.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row?.id ?? 0;
  }

  const json = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

  /** No secret value anywhere in the rows (tokens, secrets, remember tokens, passwords, envelopes). */
  function expectNoSecrets(rows: AuditRow[], secrets: string[]): void {
    const text = JSON.stringify(rows);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/token_hash|secret_cipher|pwd_cipher|data_key/);
  }

  beforeAll(async () => {
    s = await startTestServer(engine);
    uninstall = installTestActions([TEST_TX], async (input: ActionInput<never>) => {
      const params = input.params as { usr: string; fail?: string };
      const row = await s.ctx.services.accounts.create({ usr: params.usr, password: 'Secret_2026', role: 0 });
      await s.ctx.services.audit.record({ entity: 'account', entityId: row.id, before: null, after: { usr: row.usr } });
      if (params.fail === '1') throw new ApiError(12);
      return { id: row.id };
    });
  });
  afterAll(async () => {
    uninstall();
    await s?.stop();
  });

  it('authSource: a sign-in audits the session it created (no token, no secret)', async () => {
    const u = await newOwner();
    const from = await lastAuditId();
    const res = await s.login(u.usr, u.password);
    expect(res.err).toBe(0);
    const rows = await auditSince(from);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      account_id: u.id,
      usr: u.usr,
      action: 'authSource',
      entity: 'session',
      before: null,
    });
    expect(json(rows[0]!.after)).toMatchObject({ account_id: u.id });
    expectNoSecrets(rows, [res.dat!.token, res.dat!.secret]);
  });

  it('auth: the same, under its own action name', async () => {
    const u = await newOwner();
    const from = await lastAuditId();
    const salt = String(Date.now());
    const tail = '&action=auth' + encodePairs({ usr: u.usr, 'company-key': WEB_COMPANY_KEY, source: 1 });
    const sign = signLogin(salt, sha1Hex(u.password), tail);
    const res = (await s.request<Env<AuthDat>>(`/public/?sign=${sign}&salt=${salt}${tail}`)).body;
    expect(res.err).toBe(0);
    const rows = await auditSince(from);
    expect(rows.map((r) => [r.action, r.entity, r.account_id])).toEqual([['auth', 'session', u.id]]);
    expectNoSecrets(rows, [res.dat!.token, res.dat!.secret]);
  });

  it('a failed sign-in writes no audit row but its failure stays counted (durable after rollback)', async () => {
    const u = await newOwner();
    const from = await lastAuditId();
    expect((await s.login(u.usr, 'Wrong_2026')).err).toBe(16);
    expect(await auditSince(from)).toEqual([]);
    const row = await s.ctx.db
      .selectFrom('login_throttle')
      .select('failures')
      .where('key', '=', `acct:${u.id}`)
      .executeTakeFirst();
    expect(row?.failures).toBe(1);
  });

  it('authByRememberToken: the old remember token rotated, a new one and a session created', async () => {
    const u = await newOwner();
    const first = (await s.login(u.usr, u.password, { isRem: true })).dat!;
    const from = await lastAuditId();
    const res = await s.request<Env<AuthDat>>(
      `/public/?action=authByRememberToken&rem=${first.rem}&company-key=${WEB_COMPANY_KEY}`,
    );
    expect(res.body.err).toBe(0);
    const rows = await auditSince(from);
    expect(rows.every((r) => r.action === 'authByRememberToken' && r.account_id === u.id && r.usr === u.usr)).toBe(
      true,
    );
    expect(rows.map((r) => [r.entity, r.before === null ? 'created' : 'changed'])).toEqual([
      ['session', 'created'],
      ['remember_token', 'created'],
      ['remember_token', 'changed'],
    ]);
    const rotated = rows[2]!;
    expect(json(rotated.before)).toEqual({ revoked_at: null, rotated_at: null });
    expect(json(rotated.after)).toMatchObject({ replaced_by: Number(rows[1]!.entity_id) });
    expectNoSecrets(rows, [first.rem!, res.body.dat!.rem!, res.body.dat!.token, res.body.dat!.secret]);

    // The rotated token presented again: the call fails, yet the family revocation and its audit row stay.
    const again = await s.request<Env>(
      `/public/?action=authByRememberToken&rem=${first.rem}&company-key=${WEB_COMPANY_KEY}`,
    );
    expect(again.body.err).toBe(10);
    const theft = (await auditSince(rows[2]!.id)).filter((r) => r.entity === 'remember_token');
    expect(theft).toHaveLength(1);
    expect(theft[0]).toMatchObject({ account_id: u.id, action: 'authByRememberToken' });
    expect(json(theft[0]!.after)).toMatchObject({ reason: 'rotated token reused', revoked: 1 });
    const latest = await s.request<Env>(
      `/public/?action=authByRememberToken&rem=${res.body.dat!.rem}&company-key=${WEB_COMPANY_KEY}`,
    );
    expect(latest.body.err).toBe(10);
  });

  it('updateToken: a session created and the calling one revoked, ids only', async () => {
    const u = await newOwner();
    const me = (await s.login(u.usr, u.password)).dat!;
    const from = await lastAuditId();
    const res = await s.api(me).call('updateToken', {});
    const rows = await auditSince(from);
    expect(rows.map((r) => [r.action, r.entity, r.account_id, r.usr])).toEqual([
      ['updateToken', 'session', u.id, u.usr],
      ['updateToken', 'session', u.id, u.usr],
    ]);
    const [created, revoked] = rows as [AuditRow, AuditRow];
    expect(created.before).toBeNull();
    expect(json(revoked.before)).toEqual({ revoked_at: null });
    expect(json(revoked.after)).toMatchObject({ replaced_by: Number(created.entity_id) });
    expectNoSecrets(rows, [me.token, me.secret, res.token, res.secret]);
  });

  it('logout: the session revoked and, with rem, the remember family', async () => {
    const u = await newOwner();
    const me = (await s.login(u.usr, u.password, { isRem: true })).dat!;
    const from = await lastAuditId();
    await s.api(me).call('logout', { rem: me.rem! });
    const rows = await auditSince(from);
    expect(rows.map((r) => [r.action, r.entity, r.account_id])).toEqual([
      ['logout', 'session', u.id],
      ['logout', 'remember_token', u.id],
    ]);
    expect(json(rows[0]!.before)).toEqual({ revoked_at: null });
    expect(json(rows[1]!.after)).toMatchObject({ revoked: 1 });
    expectNoSecrets(rows, [me.token, me.secret, me.rem!]);
  });

  it('updatePassword: account, "password changed" with field names only', async () => {
    const u = await newOwner('Old_pass_1');
    const me = (await s.login(u.usr, u.password)).dat!;
    await s.login(u.usr, u.password, { isRem: true });
    const from = await lastAuditId();
    const change = encodePasswordChange('Old_pass_1', 'New_pass_2');
    await s.api(me).call('updatePassword', change);
    const rows = await auditSince(from);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      account_id: u.id,
      action: 'updatePassword',
      entity: 'account',
      entity_id: String(u.id),
      before: null,
    });
    expect(json(rows[0]!.after)).toEqual({ changed: ['password'], revoked_sessions: 1, revoked_remember: 1 });
    expectNoSecrets(rows, [
      'Old_pass_1',
      'New_pass_2',
      sha1Hex('Old_pass_1'),
      sha1Hex('New_pass_2'),
      change.newpwd,
      change.newpwdtext,
    ]);
    // a wrong old password: no audit row
    const from2 = await lastAuditId();
    expect((await s.call(me, 'updatePassword', encodePasswordChange('Not_the_old', 'Other_pass_3'))).err).toBe(16);
    expect(await auditSince(from2)).toEqual([]);
  });

  it('focusDevice / unfocusDevice: the follow row before → after; no change, no row', async () => {
    const anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
    const api = s.api(anna);
    await api.call('unfocusDevice', ANNA_DEVICE); // start unfollowed
    const from = await lastAuditId();
    await api.call('focusDevice', ANNA_DEVICE);
    await api.call('focusDevice', ANNA_DEVICE); // already followed
    await api.call('unfocusDevice', ANNA_DEVICE);
    const rows = await auditSince(from);
    expect(rows.map((r) => [r.action, r.entity, r.account_id, r.usr])).toEqual([
      ['focusDevice', 'device_follow', anna.uid, 'owner_anna'],
      ['unfocusDevice', 'device_follow', anna.uid, 'owner_anna'],
    ]);
    const followed = json(rows[0]!.after) as { account_id: number; device_id: number };
    expect(followed).toMatchObject({ account_id: anna.uid });
    expect(rows[0]!.entity_id).toBe(`${anna.uid}:${followed.device_id}`);
    expect(rows[0]!.before).toBeNull();
    expect(json(rows[1]!.before)).toEqual(json(rows[0]!.after));
    expect(rows[1]!.after).toBeNull();
  });

  it('a mutating handler that writes (in a nested transaction) and throws leaves neither data nor audit rows', async () => {
    const u = await newOwner();
    const me = (await s.login(u.usr, u.password)).dat!;
    const from = await lastAuditId();
    const usr = `tx_fail_${engine.name}`;
    const res = await s.call(me, 'testTxWrite', { usr, fail: '1' });
    expect(res.err).toBe(12);
    expect(await s.ctx.repos.accounts.findByUsr(usr)).toBeUndefined();
    expect(await auditSince(from)).toEqual([]);

    const ok = await s.call<{ id: number }>(me, 'testTxWrite', { usr: `tx_ok_${engine.name}` });
    expect(ok.err).toBe(0);
    const rows = await auditSince(from);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      account_id: u.id,
      usr: u.usr,
      action: 'testTxWrite',
      entity: 'account',
      entity_id: String(ok.dat!.id),
    });
  });

  it('20 concurrent mutating calls neither deadlock nor lose a row (with reads alongside)', async () => {
    const u = await newOwner();
    const me = (await s.login(u.usr, u.password)).dat!;
    const anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
    const from = await lastAuditId();
    const calls = Array.from({ length: 20 }, (_, i) =>
      s.call<{ id: number }>(me, 'testTxWrite', { usr: `tx_par_${engine.name}_${i}`, fail: i % 4 === 3 ? '1' : '0' }),
    );
    const reads = Array.from({ length: 5 }, () => s.call(anna, 'queryAccountInfo'));
    const follows = [s.call(anna, 'focusDevice', ANNA_DEVICE), s.call(anna, 'unfocusDevice', ANNA_DEVICE)];
    const results = await Promise.all(calls);
    expect((await Promise.all(reads)).map((r) => r.err)).toEqual([0, 0, 0, 0, 0]);
    expect((await Promise.all(follows)).map((r) => r.err)).toEqual([0, 0]);
    expect(results.map((r) => r.err)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 4 === 3 ? 12 : 0)));
    const rows = (await auditSince(from)).filter((r) => r.action === 'testTxWrite');
    expect(rows).toHaveLength(15);
    const created = await s.ctx.db
      .selectFrom('accounts')
      .select('usr')
      .where('usr', 'like', `tx_par_${engine.name}_%`)
      .execute();
    expect(created).toHaveLength(15);
  }, 30_000);
});
