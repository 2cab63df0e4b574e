import {
  ACTION_NAMES,
  catalogue,
  timestampSalts,
  type ActionDef,
  type ActionName,
  type Envelope,
} from '@sunwatch/protocol';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshIp } from '../harness.js';
import {
  createFixtureStore,
  rollbackEveryAction,
  type FixtureStore,
  type RollbackControl,
  type ServedCopy,
} from './copies.js';
import { ENTRIES, isExempt, isNotExercised, type CellContext, type Entry, type MatrixEntry } from './entries.js';
import {
  BUTTON_CALLERS,
  buildFixture,
  isButtonCaller,
  moduleOfButton,
  type ButtonCaller,
  type CallerKey,
  type Fixture,
} from './fixture.js';
import {
  accountKeyOf,
  administratorOf,
  CALLERS,
  expectedOutcome,
  forbiddenMarkers,
  inAccountScope,
  REFS,
  visibleCount,
  type Outcome,
  type RefKey,
  type WireParams,
} from './model.js';
import {
  FILE_EXPORTS,
  INLINE_EXPORTS,
  fileText,
  isSameFile,
  type FileAction,
  type FileExport,
  type SameFile,
} from './exports.js';
import { normaliseNewIds, ownershipSnapshot, snapshotDiff, type Snapshot } from './snapshot.js';
import { wireCall, type WireFile } from './wire.js';

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

/** The outcome of a cell: the catalogue's (model.ts), then the entry's documented rule. */
function want(name: string, entry: MatrixEntry, caller: CallerKey, ref: RefKey): Outcome {
  const base = expectedOutcome(
    defOf(name),
    { kind: entry.ref, personal: entry.personal, notFound: entry.notFound, read: entry.read },
    caller,
    ref,
  );
  return entry.outcome ? entry.outcome(caller, ref, base) : base;
}

/**
 * The button axis of an action gated by a function point: a sub-administrator whose role has the
 * button's module and only that button (`SA_with:`), and one whose role has the whole module but
 * that button (`SA_without:`), each on the action's "own" reference: the first the full module
 * sub-administrator may use, else the first it is refused with a code other than 11 (so that the
 * button's 11 is told apart from the reference's answer), else the first.
 */
function buttonCells(name: string, entry: MatrixEntry): Array<[ButtonCaller, RefKey]> {
  const button = defOf(name).access.button;
  if (!button) return [];
  const full = `SA_${moduleOfButton(button)}` as CallerKey;
  const refs = REFS[entry.ref] as readonly RefKey[];
  const ref =
    refs.find((r) => want(name, entry, full, r).ok) ??
    refs.find((r) => want(name, entry, full, r).code !== 11) ??
    refs[0]!;
  return [
    [`SA_with:${button}`, ref],
    [`SA_without:${button}`, ref],
  ];
}

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

  it('button axis: without the button 11; with only it (and its module) the outcome of the full module sub-administrator', () => {
    const problems: string[] = [];
    let gated = 0;
    for (const n of ACTION_NAMES) {
      const e = entries[n]!;
      const button = defOf(n).access.button;
      if (!button || isExempt(e) || isNotExercised(e)) continue;
      gated += 1;
      const full = `SA_${moduleOfButton(button)}` as CallerKey;
      for (const [caller, ref] of buttonCells(n, e)) {
        const got = want(n, e, caller, ref);
        const expected = caller.startsWith('SA_without:') ? { ok: false, code: 11 } : want(n, e, full, ref);
        if (got.ok !== expected.ok || (!got.ok && got.code !== expected.code))
          problems.push(
            `${n} × ${caller} × ${ref}: model says ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`,
          );
      }
    }
    expect(problems).toEqual([]);
    expect(gated).toBeGreaterThan(0);
  });

  it('has a file entry (exports.ts) for every export action, and none for actions that do not exist', () => {
    const files = FILE_EXPORTS as Record<string, FileExport | SameFile | undefined>;
    const missing = ACTION_NAMES.filter(
      (n) => /^export/.test(n) && files[n] === undefined && INLINE_EXPORTS[n] === undefined,
    );
    expect(missing, 'export actions without a file entry (apps/server/test/isolation/exports.ts)').toEqual([]);
    const stale = Object.keys(files).filter((n) => !(ACTION_NAMES as readonly string[]).includes(n));
    expect(stale).toEqual([]);
    for (const [n, e] of Object.entries(FILE_EXPORTS) as Array<[FileAction, FileExport | SameFile]>) {
      if (isSameFile(e)) expect(isSameFile(FILE_EXPORTS[e.sameFileAs]), n).toBe(false);
    }
  });

  it('leaves no entry "not exercised" (each counts as a failure)', () => {
    const pending = ACTION_NAMES.flatMap((n) => {
      const e = entries[n]!;
      return isNotExercised(e) ? [`${n}: ${e.notExercised}`] : [];
    });
    expect(pending).toEqual([]);
  });

  it('gives a second form (alsoAs) only to read actions (the mutating pass does not run it)', () => {
    const mutating = ACTION_NAMES.filter((n) => {
      const e = entries[n]!;
      return !isExempt(e) && !isNotExercised(e) && e.alsoAs !== undefined && defOf(n).mutates;
    });
    expect(mutating).toEqual([]);
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
  const stats = { cells: 0, copies: 0, files: 0, started: 0 };
  /** Units whose marker appeared in some response (to callers allowed to see it). */
  const seenMarkers = new Set<string>();
  const keyOfUid = new Map<number, string>();

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
    const sabIp = freshIp();
    for (const c of BUTTON_CALLERS) ips.set(c, sabIp);
    for (const [k, id] of Object.entries(fx.ids)) if (k !== 'DISABLED') keyOfUid.set(id, k);
  }, 120_000);

  afterAll(async () => {
    await store?.dispose();
    console.log(
      `[isolation matrix ${engine.name}] ${stats.cells} cells and ${stats.files} export files on ${stats.copies} database copies in ${((Date.now() - stats.started) / 1000).toFixed(1)} s`,
    );
  });

  /** One call over HTTP, signed over every parameter with the caller's session (none for ANON). */
  function callAs(
    url: string,
    caller: CallerKey,
    action: string,
    params: WireParams,
    file?: WireFile,
  ): Promise<{ env: Envelope<unknown>; text: string }> {
    const upload = defOf(action).upload;
    return wireCall(
      url,
      fx.sessions[caller],
      action,
      params,
      nextSalt(),
      ips.get(caller)!,
      file && upload ? { field: upload.field, ...file } : undefined,
    );
  }

  /**
   * Binds the custom role of a button caller (or, without one, the resting empty role) to account
   * SAB, as assignRole does (accounts.role_permission_id): the dispatcher reads the bound role's
   * function points on every call. A direct write, so that it also holds on the copy whose action
   * transactions are rolled back.
   */
  async function bindButtonRole(server: ServedCopy, caller?: ButtonCaller): Promise<void> {
    const rid = fx.subAdminRoles[caller ?? 'SA_none'];
    if (rid === undefined)
      throw new Error(`fixture has no role for ${caller ?? 'SA_none'}: ${fx.setupProblems.join('; ')}`);
    await server.ctx.database.db
      .updateTable('accounts')
      .set({ role_permission_id: rid })
      .where('id', '=', fx.ids.SAB!)
      .execute();
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
    const cell = `${name} × ${caller} × ${ref}`;
    const expected = want(name, entry, caller, ref);
    let params: WireParams;
    let file: WireFile | undefined;
    try {
      params = entry.params(ctxFor(caller, ref));
      file = entry.file?.(ctxFor(caller, ref));
    } catch (e) {
      return [`${cell}: cannot be exercised: ${(e as Error).message}`];
    }
    if (isButtonCaller(caller)) await bindButtonRole(server, caller);
    const { env, text } = await callAs(server.url, caller, name, params, file);
    stats.cells += 1;
    const problems: string[] = [];
    const okCodes = [0, ...(entry.okCodes ?? [])];
    if (expected.ok ? !okCodes.includes(env.err) : env.err !== expected.code) {
      problems.push(
        `${cell}: expected ${expected.ok ? `success (${okCodes.join('/')})` : `err ${expected.code}`} (${expected.why}), got err ${env.err} ${env.desc ?? ''}`,
      );
    }
    if (!expected.ok && env.dat !== undefined) problems.push(`${cell}: a refused call carries dat`);
    const lower = text.toLowerCase();
    for (const [u, m] of Object.entries(fx.markers)) if (lower.includes(m)) seenMarkers.add(u);
    for (const m of forbiddenMarkers(fx, caller)) {
      if (lower.includes(m)) problems.push(`${cell}: response contains the foreign marker ${m}`);
    }
    if (expected.ok && env.err === 0 && entry.accountRows) {
      try {
        const { total, uids } = entry.accountRows(env.dat);
        if (total !== uids.length) problems.push(`${cell}: total ${total} but ${uids.length} rows (pagesize 50)`);
        for (const u of uids) {
          const key = keyOfUid.get(u);
          if (key === undefined) problems.push(`${cell}: row of an account outside the fixture (uid ${u})`);
          else if (key !== accountKeyOf(caller) && !inAccountScope(caller, key)) {
            problems.push(`${cell}: row of ${key}, out of the caller's reach`);
          }
        }
      } catch (e) {
        problems.push(`${cell}: unreadable account rows (${(e as Error).message})`);
      }
    }
    if (expected.ok && env.err === 0 && entry.adminRows) {
      try {
        const { total, ids } = entry.adminRows.read(env.dat);
        const admins = entry.adminRows.kind === 'group' ? fx.groupAdmins : fx.roleAdmins;
        const mine = [...admins].filter(([, admin]) => admin === administratorOf(caller)).map(([id]) => id);
        if (total !== ids.length) problems.push(`${cell}: total ${total} but ${ids.length} rows`);
        if (JSON.stringify([...ids].sort()) !== JSON.stringify(mine.sort())) {
          problems.push(
            `${cell}: ${entry.adminRows.kind}s ${ids.join(',')}, expected exactly ${mine.join(',')} (of ${administratorOf(caller)})`,
          );
        }
      } catch (e) {
        problems.push(`${cell}: unreadable rows (${(e as Error).message})`);
      }
    }
    if (expected.ok && env.err === 0 && entry.counts) {
      for (const c of entry.counts) {
        let got: number | string;
        try {
          got = c.read(env.dat);
        } catch (e) {
          got = `unreadable (${(e as Error).message})`;
        }
        const visible = visibleCount(fx, c.kind, caller);
        if (got !== visible) problems.push(`${cell}: ${c.kind} count ${got}, expected ${visible}`);
      }
    }
    return problems;
  }

  const exercised = (): Array<[ActionName, MatrixEntry]> =>
    ACTION_NAMES.flatMap((n) => {
      const e = entries[n]!;
      return isExempt(e) || isNotExercised(e) ? [] : [[n, e] as [ActionName, MatrixEntry]];
    });

  const cellsOf = (name: string, entry: MatrixEntry): Array<[CallerKey, RefKey]> => [
    ...CALLERS.flatMap((c) => (REFS[entry.ref] as readonly RefKey[]).map((r) => [c, r] as [CallerKey, RefKey])),
    ...buttonCells(name, entry),
  ];

  async function withCopy<T>(fn: (s: ServedCopy) => Promise<T>): Promise<T> {
    const s = await store.serveCopy();
    stats.copies += 1;
    try {
      return await fn(s);
    } finally {
      await s.close();
    }
  }

  it('builds the whole fixture (groups, roles and orders through their actions)', () => {
    expect(fx.setupProblems).toEqual([]);
  });

  it('read actions: every caller × reference answers as the catalogue says, without foreign data', async () => {
    const problems: string[] = [];
    await withCopy(async (s) => {
      const before = await ownershipSnapshot(s.ctx.database.db);
      const cells = exercised().flatMap(([name, entry]) =>
        defOf(name).mutates
          ? []
          : [entry, ...(entry.alsoAs ? [entry.alsoAs] : [])].flatMap((form) =>
              cellsOf(name, form).map(([caller, ref]) => ({ name, entry: form, caller, ref })),
            ),
      );
      // One call at a time: the server runs in this process, so calls in flight at once only
      // compete for the same CPU (measured slower with 4).
      for (const c of cells) problems.push(...(await runCell(s, c.name, c.entry, c.caller, c.ref)));
      await bindButtonRole(s);
      problems.sort();
      const changed = snapshotDiff(before, await ownershipSnapshot(s.ctx.database.db));
      if (changed.length) problems.push(`read actions changed ownership rows: ${changed.join('; ')}`);
    });
    expect(problems).toEqual([]);
    // The marker check is not vacuous: every unit's marker reaches the callers allowed to see it.
    expect([...seenMarkers].sort()).toEqual(Object.keys(fx.markers).sort());
  }, 900_000);

  it(
    'mutating actions: every cell answers as the catalogue says and commits nothing outside its transaction; ' +
      'extra ownership parameters change nothing (mass assignment)',
    async () => {
      const cellProblems: string[] = [];
      const massProblems: string[] = [];
      // One fresh copy for the mutating actions; every call's action transaction is rolled back
      // after its handler answered (copies.ts rollbackEveryAction), so every cell starts from the
      // fixture. Should an action leave a change behind (a write outside its transaction: a
      // failure), the next action starts on a new copy.
      let copy: { s: ServedCopy; control: RollbackControl; before: Snapshot } | undefined;
      try {
        for (const [name, entry] of exercised()) {
          if (!defOf(name).mutates) continue;
          if (!copy) {
            const s = await store.serveCopy();
            stats.copies += 1;
            copy = { s, control: rollbackEveryAction(s.ctx), before: await ownershipSnapshot(s.ctx.database.db) };
          }
          const { s, control, before } = copy;
          for (const [caller, ref] of cellsOf(name, entry))
            cellProblems.push(...(await runCell(s, name, entry, caller, ref)));
          await bindButtonRole(s);
          massProblems.push(...(await massAssignment(s, control, before, name, entry)));
          const left = snapshotDiff(before, await ownershipSnapshot(s.ctx.database.db));
          if (left.length) {
            cellProblems.push(`${name}: calls changed ownership rows outside their transaction: ${left.join('; ')}`);
            control.restore();
            await s.close();
            copy = undefined;
          }
        }
      } finally {
        if (copy) {
          copy.control.restore();
          await copy.s.close();
        }
      }
      expect({ cells: cellProblems, massAssignment: massProblems }).toEqual({ cells: [], massAssignment: [] });
    },
    900_000,
  );

  it('export files: built for real, downloaded and unpacked, carry no marker their caller may not see', async () => {
    const problems: string[] = [];
    // A copy without rollback: the export's row commits and the server's own job builds the file.
    await withCopy(async (s) => {
      for (const [name, spec] of Object.entries(FILE_EXPORTS) as Array<[FileAction, FileExport | SameFile]>) {
        if (isSameFile(spec)) continue;
        for (const caller of spec.callers) {
          problems.push(...(await exportFile(s, name, spec, caller)));
        }
      }
    });
    expect(problems).toEqual([]);
  }, 300_000);

  /** One export: start it, wait for its file, download it through the signed address, scan its text. */
  async function exportFile(s: ServedCopy, name: FileAction, spec: FileExport, caller: CallerKey): Promise<string[]> {
    const cell = `${name} × ${caller} (file)`;
    const started = await callAs(s.url, caller, name, spec.params(ctxFor(caller, 'A1')));
    if (started.env.err !== 0) return [`${cell}: err ${started.env.err} ${started.env.desc ?? ''}`];
    const id = (started.env.dat as { id: number }).id;
    let link: { url: string } | undefined;
    let last = '';
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const u = await callAs(s.url, caller, spec.urlAction, { id });
      if (u.env.err === 0) {
        link = u.env.dat as { url: string };
        break;
      }
      last = `err ${u.env.err} ${u.env.desc ?? ''}`;
      if (u.env.err !== 12) break;
      s.ctx.services.reports.runner.kick();
      await new Promise((r) => setTimeout(r, 250));
    }
    if (!link) return [`${cell}: no file to download (${spec.urlAction}: ${last})`];
    const res = await fetch(`${s.url}${link.url}`);
    if (res.status !== 200) return [`${cell}: download answered HTTP ${res.status}`];
    const text = fileText(new Uint8Array(await res.arrayBuffer())).toLowerCase();
    stats.files += 1;
    const problems: string[] = [];
    // Markers in both forms: as planted, and without the hyphen (PNs and serial numbers carry them so).
    const forms = (m: string) => [m, m.replace('-', '')];
    for (const m of forbiddenMarkers(fx, caller)) {
      for (const f of forms(m))
        if (text.includes(f)) problems.push(`${cell}: the file contains the foreign marker ${f}`);
    }
    const allowed = Object.values(fx.markers).filter((m) => !forbiddenMarkers(fx, caller).includes(m));
    if (!allowed.some((m) => forms(m).some((f) => text.includes(f)))) {
      problems.push(`${cell}: the file carries no marker at all (the scan would prove nothing)`);
    }
    return problems;
  }

  /**
   * Mass assignment: the action's successful "own" call (the first of O1, D1, M1, G1, OP, V1 that
   * may make it), once with its declared parameters and once with every ownership field its
   * schema does not declare, signed; the ownership rows each leaves inside its transaction must
   * be the same.
   */
  async function massAssignment(
    s: ServedCopy,
    control: RollbackControl,
    before: Snapshot,
    name: ActionName,
    entry: MatrixEntry,
  ): Promise<string[]> {
    const def = defOf(name);
    const preferred: CallerKey[] = ['O1', 'D1', 'M1', 'G1', 'OP', 'V1'];
    const refs = REFS[entry.ref] as readonly RefKey[];
    let own: [CallerKey, RefKey] | undefined;
    for (const c of preferred) {
      const r = refs.find((x) => want(name, entry, c, x).ok);
      if (r) {
        own = [c, r];
        break;
      }
    }
    if (!own)
      return [`${name}: no caller of ${preferred.join(',')} may call it successfully, so mass assignment is untested`];
    const [caller, ref] = own;
    const cell = `${name} × ${caller} × ${ref}`;
    let params: WireParams;
    let file: WireFile | undefined;
    try {
      params = entry.params(ctxFor(caller, ref));
      file = entry.file?.(ctxFor(caller, ref));
    } catch (e) {
      return [`${cell}: mass assignment cannot be exercised: ${(e as Error).message}`];
    }
    const declared = declaredKeys(def);
    const probes = Object.fromEntries(
      Object.entries(massAssignmentProbes(fx)).filter(([k]) => !declared.has(k) && !(k in params)),
    );
    const run = async (extra: WireParams) => {
      let diff: string[] | undefined;
      control.inside = async (trx) => {
        diff = normaliseNewIds(snapshotDiff(before, await ownershipSnapshot(trx)));
      };
      const { env } = await callAs(s.url, caller, name, { ...params, ...extra }, file);
      control.inside = undefined;
      stats.cells += 1;
      return { err: env.err, desc: env.desc, diff: diff ?? [] };
    };
    const plain = await run({});
    const probed = await run(probes);
    const problems: string[] = [];
    const okCodes = [0, ...(entry.okCodes ?? [])];
    if (!okCodes.includes(plain.err)) problems.push(`${cell}: own call failed: err ${plain.err} ${plain.desc}`);
    if (probed.err !== plain.err) {
      problems.push(`${cell}: with extra ownership parameters err ${probed.err} ${probed.desc}, without ${plain.err}`);
    }
    if (JSON.stringify(probed.diff) !== JSON.stringify(plain.diff)) {
      problems.push(
        `${cell}: extra parameters ${Object.keys(probes).join(',')} changed ownership: ` +
          `declared only → [${plain.diff.join('; ')}], with extras → [${probed.diff.join('; ')}]`,
      );
    }
    return problems;
  }
});
