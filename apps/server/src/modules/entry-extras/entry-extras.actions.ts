import crypto from 'node:crypto';
import {
  ApiError,
  LOOKUP_LIMIT,
  QR_KEY_TTL_MS,
  type AuthDat,
  type InvCodeApplyRow,
  type InvCodeRow,
} from '@sunwatch/protocol';
import type { AppContext } from '../../context.js';
import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { hashToken } from '../../security/keyring.js';
import { maskAccount, maskEmail, maskPhone } from './mask.js';
import { AddressLimiter } from './rate-limit.js';
import { SHOWCASE_USR, ensureShowcase, findShowcase, topUpShowcase } from '../../demo/showcase.js';

/**
 * Entry-page extras (issue 12, protocol actions/entry-extras.ts): account lookup by serial,
 * experience codes (demo sign-in, applications, the operator's codes), QR sign-in.
 */

/** Per-context limiters (one app context per server instance). */
const limiters = new WeakMap<AppContext, { lookup: AddressLimiter; invFail: AddressLimiter; apply: AddressLimiter }>();
function limitersOf(ctx: AppContext) {
  let l = limiters.get(ctx);
  if (!l) {
    l = {
      lookup: new AddressLimiter(LOOKUP_LIMIT.perWindow, LOOKUP_LIMIT.windowMs, ctx.now),
      invFail: new AddressLimiter(20, 15 * 60_000, ctx.now),
      apply: new AddressLimiter(5, 60 * 60_000, ctx.now),
    };
    limiters.set(ctx, l);
  }
  return l;
}

/** Experience-code alphabet: capitals and digits without the look-alikes 0/O, 1/I/L. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
function newInvCode(): string {
  const bytes = crypto.randomBytes(12);
  return [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

type CodeRecord = {
  id: number;
  code: string;
  account_id: number;
  valid_from: number;
  valid_to: number;
  uses: number;
  note: string;
  created_at: number;
};

function codeState(row: Pick<CodeRecord, 'valid_from' | 'valid_to'>, now: number): InvCodeRow['state'] {
  if (now >= row.valid_to) return 'expired';
  if (now < row.valid_from) return 'pending';
  return 'valid';
}

async function codeRow(ctx: AppContext, row: CodeRecord): Promise<InvCodeRow> {
  const account = await ctx.repos.accounts.findById(row.account_id);
  return {
    id: row.id,
    code: row.code,
    usr: account?.usr ?? '',
    uid: row.account_id,
    validFrom: Number(row.valid_from),
    validTo: Number(row.valid_to),
    state: codeState({ valid_from: Number(row.valid_from), valid_to: Number(row.valid_to) }, ctx.now()),
    uses: row.uses,
    note: row.note,
    createdAt: Number(row.created_at),
  };
}

/** A failed top-up is logged, never the caller's failure (the showcase keeps its older figures). */
async function topUpQuietly(ctx: AppContext, minGapMs: number): Promise<void> {
  try {
    await topUpShowcase(ctx, minGapMs);
  } catch (e) {
    ctx.log.warn(`Showcase: top-up failed: ${(e as Error).message}`);
  }
}

export const entryExtrasHandlers = {
  // ------------------------------------------------------------------ account lookup
  retrieveUsrByPnEs: async ({ params, call }, ctx) => {
    // Public: only the masked contact of the serial's owner, the same 257 for an unknown and an
    // unowned serial, and a per-address limit (13) so it cannot be walked over serial ranges.
    if (!limitersOf(ctx).lookup.hit(call.ip)) throw new ApiError(13);
    const db = ctx.dbh.db;
    const viaDevice = await db
      .selectFrom('devices')
      .innerJoin('dataloggers', 'dataloggers.id', 'devices.datalogger_id')
      .select('dataloggers.owner_id')
      .where('devices.sn', '=', params.pn)
      .executeTakeFirst();
    const viaLogger = viaDevice
      ? undefined
      : await db.selectFrom('dataloggers').select('owner_id').where('pn', '=', params.pn).executeTakeFirst();
    const ownerId = (viaDevice ?? viaLogger)?.owner_id;
    if (ownerId == null) throw new ApiError(257);
    const owner = await ctx.repos.accounts.findById(ownerId);
    if (!owner) throw new ApiError(257);
    return { usr: maskAccount(owner.usr), email: maskEmail(owner.email), mobile: maskPhone(owner.mobile) };
  },

  // ------------------------------------------------------------------ experience codes
  validateInvCode: async ({ params, call }, ctx) => {
    const l = limitersOf(ctx).invFail;
    if (!l.allowed(call.ip)) throw new ApiError(13);
    const now = ctx.now();
    const row = await ctx.dbh.db
      .selectFrom('inv_codes')
      .selectAll()
      .where('code', '=', params.invCode.toUpperCase())
      .executeTakeFirst();
    // Codes open the showcase only; a code issued before (naming a real account) opens nothing.
    const showcaseId = await findShowcase(ctx);
    if (
      !row ||
      row.account_id !== showcaseId ||
      codeState({ valid_from: Number(row.valid_from), valid_to: Number(row.valid_to) }, now) !== 'valid'
    ) {
      // Counted durably: the call fails and its transaction rolls back.
      await ctx.dbh.durable(() => {
        l.hit(call.ip);
        return Promise.resolve();
      });
      throw new ApiError(11, 'invCode');
    }
    const dat: AuthDat = await ctx.services.auth.signInAs(row.account_id, call, { demo: true, invCodeId: row.id });
    // The simulated figures up to now, once the sign-in is committed (ingestion writes on its own).
    await ctx.dbh.durable(() => topUpQuietly(ctx, 60_000));
    await ctx.dbh.db.updateTable('inv_codes').set({ uses: row.uses + 1 }).where('id', '=', row.id).execute();
    await ctx.services.audit.record({
      entity: 'inv_code',
      entityId: row.id,
      before: { uses: row.uses },
      after: { uses: row.uses + 1 },
    });
    return { ...dat, demo: true as const, validFrom: Number(row.valid_from), validTo: Number(row.valid_to) };
  },

  addInvCodeApply: async ({ params, call }, ctx) => {
    if (!limitersOf(ctx).apply.hit(call.ip)) throw new ApiError(13);
    const values = {
      apply_name: params.applyName.trim(),
      company_name: params.companyName?.trim() ?? '',
      company_address: params.companyAddress?.trim() ?? '',
      phone_number: params.phoneNumber.trim(),
      email: params.email.trim(),
      reason: params.reason.trim(),
      status: params.status,
      sys_type: params.sysType,
      create_time: params.createTime,
      ip: call.ip.slice(0, 64),
      received_at: ctx.now(),
    };
    if (!values.reason || values.apply_name.length < 2) throw new ApiError(6, values.reason ? 'applyName' : 'reason');
    const { id } = await ctx.dbh.db.insertInto('inv_code_applies').values(values).returning('id').executeTakeFirstOrThrow();
    await ctx.services.audit.record({
      entity: 'inv_code_apply',
      entityId: id,
      before: null,
      after: { apply_name: values.apply_name, email: values.email, received_at: values.received_at },
    });
    return { id };
  },

  addInvCode: async ({ params, ...i }, ctx) => {
    const caller = callerOf(i);
    // Codes open the showcase, never a real account (docs/decisions.md, issue 12 last gaps).
    if (params.usr !== undefined && params.usr !== SHOWCASE_USR) throw new ApiError(523, 'usr');
    const account = { id: await ensureShowcase(ctx) };
    await ctx.dbh.durable(() => topUpQuietly(ctx, 0));
    const now = ctx.now();
    const validFrom = params.validFrom ?? now;
    const values = {
      code: newInvCode(),
      account_id: account.id,
      valid_from: validFrom,
      valid_to: validFrom + params.days * 86_400_000,
      note: params.note?.trim() ?? '',
      created_by: caller.accountId,
      created_at: now,
    };
    const { id } = await ctx.dbh.db.insertInto('inv_codes').values(values).returning('id').executeTakeFirstOrThrow();
    await ctx.services.audit.record({
      entity: 'inv_code',
      entityId: id,
      before: null,
      after: { account_id: account.id, valid_from: values.valid_from, valid_to: values.valid_to, note: values.note },
    });
    return codeRow(ctx, { id, uses: 0, ...values });
  },

  queryInvCodes: async ({ params }, ctx) => {
    const db = ctx.dbh.db;
    const { n } = await db
      .selectFrom('inv_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const page = Math.max(1, params.page);
    const rows = await db
      .selectFrom('inv_codes')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(params.pagesize)
      .offset((page - 1) * params.pagesize)
      .execute();
    const code: InvCodeRow[] = [];
    for (const r of rows) code.push(await codeRow(ctx, r));
    return { total: Number(n), page, pagesize: params.pagesize, code };
  },

  expireInvCode: async ({ params }, ctx) => {
    const db = ctx.dbh.db;
    const row = await db.selectFrom('inv_codes').selectAll().where('id', '=', params.id).executeTakeFirst();
    if (!row) throw new ApiError(12);
    const now = ctx.now();
    if (Number(row.valid_to) <= now) throw new ApiError(271);
    await db.updateTable('inv_codes').set({ valid_to: now }).where('id', '=', row.id).execute();
    // The demo sessions this code opened end with it; other codes' visitors of the same showcase
    // stay (sessions from before migration 0026 carry no code: they end with any code of the account).
    const revoked = await db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('account_id', '=', row.account_id)
      .where('demo', '=', 1)
      .where((eb) => eb.or([eb('inv_code_id', '=', row.id), eb('inv_code_id', 'is', null)]))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await ctx.services.audit.record({
      entity: 'inv_code',
      entityId: row.id,
      before: { valid_to: Number(row.valid_to) },
      after: { valid_to: now, revoked_demo_sessions: Number(revoked.numUpdatedRows) },
    });
    return undefined;
  },

  queryInvCodeApplies: async ({ params }, ctx) => {
    const db = ctx.dbh.db;
    const { n } = await db
      .selectFrom('inv_code_applies')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const page = Math.max(1, params.page);
    const rows = await db
      .selectFrom('inv_code_applies')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(params.pagesize)
      .offset((page - 1) * params.pagesize)
      .execute();
    const apply: InvCodeApplyRow[] = rows.map((r) => ({
      id: r.id,
      applyName: r.apply_name,
      companyName: r.company_name,
      companyAddress: r.company_address,
      phoneNumber: r.phone_number,
      email: r.email,
      reason: r.reason,
      status: r.status,
      sysType: r.sys_type,
      createTime: r.create_time,
      receivedAt: Number(r.received_at),
    }));
    return { total: Number(n), page, pagesize: params.pagesize, apply };
  },

  // ------------------------------------------------------------------ QR sign-in
  qrLogin: async ({ params, call }, ctx) => {
    if (params['company-key'] !== undefined) await ctx.services.auth.requireCompanyKey(params['company-key']);
    const keyHash = hashToken(params.key);
    const now = ctx.now();
    const db = ctx.dbh.db;
    const row = await db.selectFrom('qr_logins').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    if (!row) {
      // The first poll registers the key. The answer is an error (1033), which rolls the call's
      // transaction back: the row is written durably, after it.
      await ctx.dbh.durable(async () => {
        await ctx.dbh.db
          .deleteFrom('qr_logins')
          .where('expires_at', '<', now - QR_KEY_TTL_MS)
          .execute();
        const inserted = await ctx.dbh.db
          .insertInto('qr_logins')
          .values({ key_hash: keyHash, ip: call.ip.slice(0, 64), created_at: now, expires_at: now + QR_KEY_TTL_MS })
          .onConflict((oc) => oc.column('key_hash').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (inserted) {
          await ctx.services.audit.record(
            { entity: 'qr_login', entityId: inserted.id, before: null, after: { state: 'waiting', expires_at: now + QR_KEY_TTL_MS } },
            { accountId: null, usr: null, action: 'qrLogin' },
          );
        }
      });
      throw new ApiError(1033);
    }
    if (Number(row.expires_at) <= now) throw new ApiError(1041);
    if (row.state === 'waiting') throw new ApiError(1033);
    if (row.state === 'scanned') throw new ApiError(1040);
    if (row.state !== 'confirmed' || row.account_id == null) throw new ApiError(1041);
    // Single use: only the poll that moves it from confirmed to used gets the session.
    const used = await db
      .updateTable('qr_logins')
      .set({ state: 'used' })
      .where('id', '=', row.id)
      .where('state', '=', 'confirmed')
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new ApiError(1041);
    await ctx.services.audit.record({ entity: 'qr_login', entityId: row.id, before: { state: 'confirmed' }, after: { state: 'used' } });
    return ctx.services.auth.signInAs(row.account_id, call, { demo: row.demo === 1 });
  },

  qrScan: async ({ params, ...i }, ctx) => {
    const caller = callerOf(i);
    const row = await liveKey(ctx, params.key);
    if (row.state !== 'waiting' && !(row.state === 'scanned' && row.account_id === caller.accountId)) {
      throw new ApiError(1041);
    }
    if (row.state === 'waiting') {
      await ctx.dbh.db
        .updateTable('qr_logins')
        .set({ state: 'scanned', account_id: caller.accountId, demo: caller.demo ? 1 : 0 })
        .where('id', '=', row.id)
        .execute();
      await ctx.services.audit.record({
        entity: 'qr_login',
        entityId: row.id,
        before: { state: 'waiting', account_id: null },
        after: { state: 'scanned', account_id: caller.accountId },
      });
    }
    return undefined;
  },

  qrConfirm: async ({ params, ...i }, ctx) => {
    const caller = callerOf(i);
    const row = await liveKey(ctx, params.key);
    if (row.state !== 'scanned' || row.account_id !== caller.accountId) throw new ApiError(1041);
    const state = params.confirm === '1' ? 'confirmed' : 'refused';
    await ctx.dbh.db.updateTable('qr_logins').set({ state }).where('id', '=', row.id).execute();
    await ctx.services.audit.record({ entity: 'qr_login', entityId: row.id, before: { state: 'scanned' }, after: { state } });
    return undefined;
  },
} satisfies HandlerMap;

/** A registered, unexpired QR key (1041 otherwise). */
async function liveKey(ctx: AppContext, key: string) {
  const row = await ctx.dbh.db
    .selectFrom('qr_logins')
    .selectAll()
    .where('key_hash', '=', hashToken(key))
    .executeTakeFirst();
  if (!row || Number(row.expires_at) <= ctx.now()) throw new ApiError(1041);
  return row;
}
