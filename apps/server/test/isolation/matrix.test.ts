import {
  ACTION_NAMES,
  catalogue,
  signCall,
  timestampSalts,
  type ActionDef,
  type ActionName,
  type Envelope,
} from '@sunwatch/protocol';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePairs, engines, freshIp } from '../harness.js';
import { createFixtureStore, type FixtureStore, type ServedCopy } from './copies.js';
import { ENTRIES, isExempt, isNotExercised, type CellContext, type Entry, type MatrixEntry } from './entries.js';
import { buildFixture, type CallerKey, type Fixture } from './fixture.js';
import {
  CALLERS,
  expectedOutcome,
  forbiddenMarkers,
  REFS,
  visibleCount,
  type RefKey,
  type WireParams,
} from './model.js';
import { ownershipSnapshot, snapshotDiff } from './snapshot.js';

/**
 * The generated tenant-isolation proof (docs/security/isolation-matrix.md): every catalogue
 * action × every caller × every reference of the action's kind, over HTTP, signed like a real
 * client under the strict sign policy. Expected outcomes are derived from the catalogue's access
 * rules and the fixture's tree (model.ts); no response may carry a marker of a unit its caller
 * may not see; list totals count exactly what the caller may see; mutating actions run on fresh
 * copies of the fixture and refused calls change nothing; extra ownership parameters change
 * nothing (mass assignment).
 */

const entries = ENTRIES as Record<string, Entry | undefined>;
const defOf = (name: string): ActionDef => (catalogue as Record<string, ActionDef>)[name]!;

describe('isolation matrix: the entry table covers the catalogue', () => {
  it('has an entry for every catalogue action, and none for actions that do not exist', () => {
    const missing = ACTION_NAMES.filter((n) => entries[n] === undefined);
    expect(missing, 'catalogue actions without a matrix entry (apps/server/test/isolation/entries.ts)').toEqual([]);
    const stale = Object.keys(ENTRIES).filter((n) => !(ACTION_NAMES as readonly string[]).includes(n));
    expect(stale, 'matrix entries for actions not in the catalogue').toEqual([]);
  });

  it('exempts only actions that cannot take a session (sign-ins), each with a reason', () => {
    for (const n of ACTION_NAMES) {
      const e = entries[n]!;
      if (!isExempt(e)) continue;
      expect(defOf(n).access.auth, `${n} is exempt but is a signed action`).not.toBe('signed');
      expect(e.exempt.length, n).toBeGreaterThan(10);
    }
  });

  it('leaves no entry "not exercised" (each counts as a failure)', () => {
    const pending = ACTION_NAMES.flatMap((n) => {
      const e = entries[n]!;
      return isNotExercised(e) ? [`${n}: ${e.notExercised}`] : [];
    });
    expect(pending).toEqual([]);
  });
});

/** Parameters an action's schema declares (those are not mass-assignment probes). */
function declaredKeys(def: ActionDef): Set<string> {
  const shape = (def.params as unknown as z.ZodObject).shape as Record<string, unknown> | undefined;
  return new Set(Object.keys(shape ?? {}));
}

/** Ownership fields a client might try to smuggle in, with values that would hand the row to tenant B. */
function massAssignmentProbes(fx: Fixture): WireParams {
  const o3 = fx.ids.O3!;
  const d2 = fx.ids.D2!;
  const m2 = fx.ids.M2!;
  return {
    owner_id: o3,
    ownerId: o3,
    owner: o3,
    uid: o3,
    user_id: o3,
    userId: o3,
    account_id: o3,
    accountId: o3,
    role: 15,
    parent_id: d2,
    parentId: d2,
    parent: d2,
    vendor: fx.vendorCodes.M2,
    vendor_id: m2,
    vendorId: m2,
    vendor_code: fx.vendorCodes.M2,
    vcode: fx.vendorCodes.M2,
    dealer_code: fx.dealerCodes.D2,
    dist: fx.dealerCodes.D2,
    admin_id: d2,
    adminId: d2,
    admin_of: d2,
    adminOf: d2,
    tenant: m2,
    tenant_id: m2,
    manufacturer: m2,
    manufacturer_id: m2,
    path: '/',
    created_by: d2,
    createdBy: d2,
    group_id: d2,
    project_id: fx.plants.B!.pid,
    permissions: '["account_manag"]',
    data_permission: '{"all":true}',
  };
}

function today(): { day: string; month: string; year: string } {
  const d = new Date(Date.now() + 8 * 3600_000).toISOString();
  return { day: d.slice(0, 10), month: d.slice(0, 7), year: d.slice(0, 4) };
}

describe.each(engines)('isolation matrix ($name)', (engine) => {
  let store: FixtureStore;
  let fx: Fixture;
  const nextSalt = timestampSalts(Date.now);
  const ips = new Map<CallerKey, string>();
  const stats = { cells: 0, copies: 0, started: 0 };
  /** Units whose marker appeared in some response (to callers allowed to see it). */
  const seenMarkers = new Set<string>();

  beforeAll(async () => {
    stats.started = Date.now();
    store = await createFixtureStore(engine.name, Date.now);
    const tpl = await store.serveTemplate();
    try {
      fx = await buildFixture(tpl, Date.now(), nextSalt, freshIp);
    } finally {
      await tpl.close();
    }
    for (const c of CALLERS) ips.set(c, freshIp());
  }, 120_000);

  afterAll(async () => {
    await store?.dispose();
    console.log(
      `[isolation matrix ${engine.name}] ${stats.cells} cells on ${stats.copies} database copies in ${((Date.now() - stats.started) / 1000).toFixed(1)} s`,
    );
  });

  /** One call over HTTP, signed over every parameter with the caller's session (none for ANON). */
  async function callAs(
    url: string,
    caller: CallerKey,
    action: string,
    params: WireParams,
  ): Promise<{ env: Envelope<unknown>; text: string }> {
    const salt = nextSalt();
    const tail = `&action=${action}` + encodePairs({ source: 1, ...params });
    const session = fx.sessions[caller];
    const query = session
      ? `sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`
      : `salt=${salt}${tail}`;
    const res = await fetch(`${url}/public/?${query}`, { headers: { 'x-forwarded-for': ips.get(caller)! } });
    const text = await res.text();
    let env: Envelope<unknown>;
    try {
      env = JSON.parse(text) as Envelope<unknown>;
    } catch {
      env = { err: -1, desc: `not JSON (HTTP ${res.status})` };
    }
    return { env, text };
  }

  function ctxFor(caller: CallerKey, ref: RefKey): CellContext {
    return { fx, caller, ref, ...today() };
  }

  /** Runs one cell and returns what is wrong with it ([] when it holds). */
  async function runCell(
    server: ServedCopy,
    name: ActionName,
    entry: MatrixEntry,
    caller: CallerKey,
    ref: RefKey,
  ): Promise<string[]> {
    const def = defOf(name);
    const want = expectedOutcome(def, { kind: entry.ref, personal: entry.personal }, caller, ref);
    const { env, text } = await callAs(server.url, caller, name, entry.params(ctxFor(caller, ref)));
    stats.cells += 1;
    const cell = `${name} × ${caller} × ${ref}`;
    const problems: string[] = [];
    const okCodes = [0, ...(entry.okCodes ?? [])];
    if (want.ok ? !okCodes.includes(env.err) : env.err !== want.code) {
      problems.push(
        `${cell}: expected ${want.ok ? `success (${okCodes.join('/')})` : `err ${want.code}`} (${want.why}), got err ${env.err} ${env.desc ?? ''}`,
      );
    }
    if (!want.ok && env.dat !== undefined) problems.push(`${cell}: a refused call carries dat`);
    const lower = text.toLowerCase();
    for (const [u, m] of Object.entries(fx.markers)) if (lower.includes(m)) seenMarkers.add(u);
    for (const m of forbiddenMarkers(fx, caller)) {
      if (lower.includes(m)) problems.push(`${cell}: response contains the foreign marker ${m}`);
    }
    if (want.ok && env.err === 0 && entry.counts) {
      for (const c of entry.counts) {
        let got: number | string;
        try {
          got = c.read(env.dat);
        } catch (e) {
          got = `unreadable (${(e as Error).message})`;
        }
        const expected = visibleCount(fx, c.kind, caller);
        if (got !== expected) problems.push(`${cell}: ${c.kind} count ${got}, expected ${expected}`);
      }
    }
    return problems;
  }

  const exercised = (): Array<[ActionName, MatrixEntry]> =>
    ACTION_NAMES.flatMap((n) => {
      const e = entries[n]!;
      return isExempt(e) || isNotExercised(e) ? [] : [[n, e] as [ActionName, MatrixEntry]];
    });

  const cellsOf = (entry: MatrixEntry): Array<[CallerKey, RefKey]> =>
    CALLERS.flatMap((c) => (REFS[entry.ref] as readonly RefKey[]).map((r) => [c, r] as [CallerKey, RefKey]));

  async function withCopy<T>(fn: (s: ServedCopy) => Promise<T>): Promise<T> {
    const s = await store.serveCopy();
    stats.copies += 1;
    try {
      return await fn(s);
    } finally {
      await s.close();
    }
  }

  it('read actions: every caller × reference answers as the catalogue says, without foreign data', async () => {
    const problems: string[] = [];
    await withCopy(async (s) => {
      const before = await ownershipSnapshot(s.ctx.database.db);
      for (const [name, entry] of exercised()) {
        if (defOf(name).mutates) continue;
        for (const [caller, ref] of cellsOf(entry)) problems.push(...(await runCell(s, name, entry, caller, ref)));
      }
      const changed = snapshotDiff(before, await ownershipSnapshot(s.ctx.database.db));
      if (changed.length) problems.push(`read actions changed ownership rows: ${changed.join('; ')}`);
    });
    expect(problems).toEqual([]);
    // The marker check is not vacuous: every unit's marker reaches the callers allowed to see it.
    expect([...seenMarkers].sort()).toEqual(Object.keys(fx.markers).sort());
  }, 180_000);

  it('mutating actions: every cell on a fresh copy; refused calls change nothing', async () => {
    const problems: string[] = [];
    for (const [name, entry] of exercised()) {
      const def = defOf(name);
      if (!def.mutates) continue;
      const cells = cellsOf(entry);
      if (entry.sharedCopy) {
        await withCopy(async (s) => {
          for (const [caller, ref] of cells) problems.push(...(await runCell(s, name, entry, caller, ref)));
        });
        continue;
      }
      const refused = cells.filter(
        ([c, r]) => !expectedOutcome(def, { kind: entry.ref, personal: entry.personal }, c, r).ok,
      );
      const allowed = cells.filter(
        ([c, r]) => expectedOutcome(def, { kind: entry.ref, personal: entry.personal }, c, r).ok,
      );
      await withCopy(async (s) => {
        const before = await ownershipSnapshot(s.ctx.database.db);
        for (const [caller, ref] of refused) problems.push(...(await runCell(s, name, entry, caller, ref)));
        const changed = snapshotDiff(before, await ownershipSnapshot(s.ctx.database.db));
        if (changed.length) problems.push(`${name}: refused calls changed ownership rows: ${changed.join('; ')}`);
      });
      for (const [caller, ref] of allowed) {
        await withCopy(async (s) => problems.push(...(await runCell(s, name, entry, caller, ref))));
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('mass assignment: extra ownership parameters change nothing beyond what the declared ones do', async () => {
    const problems: string[] = [];
    const preferred: CallerKey[] = ['O1', 'D1', 'M1', 'G1', 'OP', 'V1'];
    for (const [name, entry] of exercised()) {
      const def = defOf(name);
      if (!def.mutates) continue;
      const refs = REFS[entry.ref] as readonly RefKey[];
      let own: [CallerKey, RefKey] | undefined;
      for (const c of preferred) {
        const r = refs.find((x) => expectedOutcome(def, { kind: entry.ref, personal: entry.personal }, c, x).ok);
        if (r) {
          own = [c, r];
          break;
        }
      }
      if (!own) {
        problems.push(
          `${name}: no caller of ${preferred.join(',')} may call it successfully, so mass assignment is untested`,
        );
        continue;
      }
      const [caller, ref] = own;
      const params = entry.params(ctxFor(caller, ref));
      const declared = declaredKeys(def);
      const probes = Object.fromEntries(
        Object.entries(massAssignmentProbes(fx)).filter(([k]) => !declared.has(k) && !(k in params)),
      );
      const run = (extra: WireParams) =>
        withCopy(async (s) => {
          const before = await ownershipSnapshot(s.ctx.database.db);
          const { env } = await callAs(s.url, caller, name, { ...params, ...extra });
          stats.cells += 1;
          return {
            err: env.err,
            desc: env.desc,
            diff: snapshotDiff(before, await ownershipSnapshot(s.ctx.database.db)),
          };
        });
      const plain = await run({});
      const probed = await run(probes);
      const okCodes = [0, ...(entry.okCodes ?? [])];
      if (!okCodes.includes(plain.err))
        problems.push(`${name} × ${caller} × ${ref}: own call failed: err ${plain.err} ${plain.desc}`);
      if (probed.err !== plain.err) {
        problems.push(
          `${name} × ${caller} × ${ref}: with extra ownership parameters err ${probed.err} ${probed.desc}, without ${plain.err}`,
        );
      }
      if (JSON.stringify(probed.diff) !== JSON.stringify(plain.diff)) {
        problems.push(
          `${name} × ${caller} × ${ref}: extra parameters ${Object.keys(probes).join(',')} changed ownership: ` +
            `declared only → [${plain.diff.join('; ')}], with extras → [${probed.diff.join('; ')}]`,
        );
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
