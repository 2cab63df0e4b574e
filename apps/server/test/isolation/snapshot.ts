import { sql } from 'kysely';
import type { Db } from '../../src/db/db.js';

/**
 * The ownership state of the database: for every row of the tables that decide who owns or sees
 * what, the columns that say it (owner, parent and path, role, manufacturer/dealer, admin_of,
 * memberships). Mass-assignment and "a refused call changes nothing" compare two snapshots.
 * Tables of later migrations are read when they exist (a missing table is skipped).
 */
const OWNERSHIP: ReadonlyArray<{ table: string; key: readonly string[]; cols: readonly string[] }> = [
  {
    table: 'accounts',
    key: ['id'],
    cols: [
      'usr',
      'role',
      'parent_id',
      'path',
      'status',
      'vendor_code',
      'dealer_code',
      'admin_of',
      'created_by',
      'group_id',
      'role_permission_id',
      'permissions',
      'data_permission',
      'can_add_datalogger',
      'member_group_id',
    ],
  },
  { table: 'projects', key: ['id'], cols: ['owner_id'] },
  { table: 'dataloggers', key: ['id'], cols: ['pn', 'owner_id', 'admin_id', 'vendor_id', 'project_id'] },
  { table: 'devices', key: ['id'], cols: ['datalogger_id', 'project_id', 'pn'] },
  { table: 'device_follows', key: ['account_id', 'device_id'], cols: [] },
  { table: 'viewer_projects', key: ['viewer_id', 'project_id'], cols: [] },
  { table: 'group_members', key: ['group_id', 'member_id'], cols: [] },
  // Issue 9 tables (read when their migrations are present).
  { table: 'user_groups', key: ['id'], cols: ['admin_id'] },
  { table: 'custom_roles', key: ['id'], cols: ['admin_id'] },
  { table: 'ctrl_field_visibility', key: ['admin_id', 'devcode', 'control_id'], cols: [] },
  { table: 'datalogger_orders', key: ['id'], cols: ['dist_id', 'bound_to', 'vendor_code'] },
];

export type Snapshot = Map<string, string>;

/**
 * Columns of the ownership tables that exist (one introspection per snapshot: introspecting
 * per table made the PostgreSQL matrix spend most of its time in the catalogue).
 */
async function ownershipColumns(db: Db): Promise<Map<string, Set<string>>> {
  const tables = await db.introspection.getTables();
  return new Map(tables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
}

export async function ownershipSnapshot(db: Db): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const schema = await ownershipColumns(db);
  for (const t of OWNERSHIP) {
    const existing = schema.get(t.table);
    if (!existing) continue;
    const cols = [...t.key, ...t.cols].filter((c) => existing.has(c));
    const rows = await sql<
      Record<string, unknown>
    >`select ${sql.join(cols.map((c) => sql.ref(c)))} from ${sql.table(t.table)}`.execute(db);
    for (const r of rows.rows) {
      const key = `${t.table}:${t.key.map((k) => String(r[k])).join(',')}`;
      out.set(key, JSON.stringify(cols.map((c) => (r[c] == null ? null : String(r[c])))));
    }
  }
  return out;
}

/** Rows added, removed or changed between two snapshots, sorted. */
export function snapshotDiff(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [k, v] of before) {
    const w = after.get(k);
    if (w === undefined) out.push(`- ${k} ${v}`);
    else if (w !== v) out.push(`~ ${k} ${v} -> ${w}`);
  }
  for (const [k, w] of after) if (!before.has(k)) out.push(`+ ${k} ${w}`);
  return out.sort();
}

/** The table a column of the ownership snapshot refers to (`id` = the row's own table). */
const REF_TABLE: Readonly<Record<string, string>> = {
  parent_id: 'accounts',
  admin_of: 'accounts',
  created_by: 'accounts',
  owner_id: 'accounts',
  admin_id: 'accounts',
  vendor_id: 'accounts',
  dist_id: 'accounts',
  bound_to: 'accounts',
  account_id: 'accounts',
  viewer_id: 'accounts',
  member_id: 'accounts',
  project_id: 'projects',
  datalogger_id: 'dataloggers',
  device_id: 'devices',
};

/**
 * Rows a call created get ids from sequences that a rollback does not rewind on PostgreSQL: two
 * calls creating "the same" row get different ids. Names each created row by its table and its
 * order there (`new1`, … over the tables in turn, ids ascending) wherever it appears in the diff
 * (its key, a path, a reference), so diffs compare. Ids are per table, so a number created in two
 * tables (project 8 and device 8) is resolved by the column it stands in; without the snapshot's
 * column layout (hand-written diffs) a number created in one table only is replaced anywhere.
 */
export function normaliseNewIds(diff: readonly string[]): string[] {
  const created = new Map<string, number[]>();
  for (const line of diff) {
    const m = /^\+ ([a-z_]+):(\d+) /.exec(line);
    if (m) created.set(m[1]!, [...(created.get(m[1]!) ?? []), Number(m[2])]);
  }
  if (created.size === 0) return [...diff];
  const names = new Map<string, string>();
  const byNumber = new Map<string, string[]>();
  for (const [table, ids] of created) {
    for (const id of [...ids].sort((a, b) => a - b)) {
      const name = `new${names.size + 1}`;
      names.set(`${table}:${id}`, name);
      byNumber.set(String(id), [...(byNumber.get(String(id)) ?? []), name]);
    }
  }
  const anywhere = (n: string) => {
    const c = byNumber.get(n);
    return c ? c.join('|') : n;
  };
  const re = new RegExp(`(?<!\\d)(${[...byNumber.keys()].join('|')})(?!\\d)`, 'g');
  const generic = (text: string) => text.replace(re, (n) => anywhere(n));
  const value = (table: string, json: string): string => {
    const layout = OWNERSHIP.find((t) => t.table === table);
    let arr: unknown;
    try {
      arr = JSON.parse(json);
    } catch {
      return generic(json);
    }
    const cols = layout ? [...layout.key, ...layout.cols] : [];
    if (!Array.isArray(arr) || arr.length !== cols.length) return generic(json);
    return JSON.stringify(
      arr.map((v, i) => {
        if (typeof v !== 'string') return v;
        const col = cols[i]!;
        if (col === 'path') return v.replace(/\d+/g, (n) => names.get(`accounts:${n}`) ?? n);
        const target = col === 'id' ? table : REF_TABLE[col];
        return target && /^\d+$/.test(v) ? (names.get(`${target}:${v}`) ?? v) : v;
      }),
    );
  };
  return diff
    .map((line) => {
      const m = /^([+~-]) ([a-z_]+):([^ ]+) (.*)$/.exec(line);
      if (!m) return generic(line);
      const [, op, table, key, rest] = m as unknown as [string, string, string, string, string];
      const k = names.get(`${table}:${key}`) ?? generic(key);
      const body = rest.includes(' -> ')
        ? rest
            .split(' -> ')
            .map((part) => value(table, part))
            .join(' -> ')
        : value(table, rest);
      return `${op} ${table}:${k} ${body}`;
    })
    .sort();
}
