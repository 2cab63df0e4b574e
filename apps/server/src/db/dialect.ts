import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder } from 'kysely';
import pg from 'pg';

export type Engine = 'sqlite' | 'postgres';

/**
 * Everything that differs between SQLite and PostgreSQL sits here; migrations and
 * repositories use only portable SQL otherwise.
 */
export interface SqlDialect {
  engine: Engine;
  /** Adds an auto-increment integer primary key column. */
  addIdColumn<T extends string>(table: CreateTableBuilder<T, never>, name?: string): CreateTableBuilder<T, never>;
  /** Column type of epoch-ms instants and other 64-bit integers. */
  bigint: 'bigint' | 'integer';
  /** Column type of packed binary values (samples). */
  blob: 'blob' | 'bytea';
  /** Column type of floating-point measurements. */
  real: 'real' | 'double precision';
  /** Byte-order collation for materialised paths, so range scans on the index select a subtree. */
  binaryText(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}

export const sqliteDialect: SqlDialect = {
  engine: 'sqlite',
  addIdColumn: (table, name = 'id') =>
    table.addColumn(name, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()),
  bigint: 'integer',
  blob: 'blob',
  real: 'real',
  binaryText: (c) => c, // SQLite's default collation is BINARY
};

export const postgresDialect: SqlDialect = {
  engine: 'postgres',
  addIdColumn: (table, name = 'id') => table.addColumn(name, 'serial', (c: ColumnDefinitionBuilder) => c.primaryKey()),
  bigint: 'bigint',
  blob: 'bytea',
  real: 'double precision',
  binaryText: (c) => c.modifyFront(sql`collate "C"`),
};

let int8ParserSet = false;
/** pg returns int8 (bigint, count(*)) as strings by default; epoch ms fit a JS number. Set once. */
export function setPgInt8Parser(): void {
  if (int8ParserSet) return;
  pg.types.setTypeParser(20, (v: string) => Number.parseInt(v, 10));
  int8ParserSet = true;
}

/**
 * The subtree of the account at `path` (itself included) as an index range: every path that
 * starts with `/1/4/` sorts in [`/1/4/`, `/1/40`) because paths hold only digits and `/`, and
 * `/` sorts right before `0` in byte order. Equivalent to `path LIKE '/1/4/%'` but uses the
 * plain b-tree index on both engines.
 */
export function subtreeRange(path: string): { from: string; to: string } {
  return { from: path, to: path.slice(0, -1) + '0' };
}
