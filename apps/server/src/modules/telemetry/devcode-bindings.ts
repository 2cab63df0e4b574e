import type { Db } from '../../db/db.js';
import type { Clock } from '../../shared/clock.js';

/** How long this instance trusts its copy of the bindings: an edit elsewhere applies within this. */
export const BINDINGS_TTL_MS = 2_000;

/** One enabled binding, as ingestion matches it (operator protocolBinding, issue 14). */
export interface DevcodeBinding {
  devcode: number;
  scope: string;
  typeCode: string;
  pnFrom: string;
  pnTo: string;
}

/** Whether a binding's scope covers a datalogger (its PN, its type code). */
export function bindingCovers(b: Omit<DevcodeBinding, 'devcode'>, pn: string, typeCode: string): boolean {
  const p = pn.toUpperCase();
  switch (b.scope) {
    case 'type':
      return b.typeCode !== '' && b.typeCode === typeCode.toUpperCase();
    case 'prefix':
      return b.pnFrom !== '' && p.startsWith(b.pnFrom);
    case 'range':
      return b.pnFrom !== '' && b.pnTo !== '' && p >= b.pnFrom && p <= b.pnTo;
    default:
      return false;
  }
}

/**
 * The devcodes each datalogger may report (operator protocolBinding): a datalogger covered by at
 * least one enabled binding may report only the devcodes bound to it; a datalogger no binding
 * covers (and every datalogger while no binding exists) reports anything. The table is small and
 * read whole: this instance reloads it when its copy is older than BINDINGS_TTL_MS (one query
 * every 2 s at most, shared by concurrent frames) and at once after a local edit (`invalidate`).
 * The answer per datalogger is memoised until the next reload, so a frame costs a Map lookup.
 */
export class DevcodeBindings {
  private list: DevcodeBinding[] = [];
  private loadedAt = -Infinity;
  private loading: Promise<void> | undefined;
  private readonly memo = new Map<string, ReadonlySet<number> | null>();

  constructor(
    private readonly db: () => Db,
    private readonly now: Clock,
  ) {}

  /** Forget the copy: the next frame reloads (after an edit on this instance). */
  invalidate(): void {
    this.loadedAt = -Infinity;
  }

  /** The devcodes a datalogger may report, or null when it may report any. */
  async allowed(pn: string, typeCode: string): Promise<ReadonlySet<number> | null> {
    if (this.now() - this.loadedAt > BINDINGS_TTL_MS) await this.reload();
    if (this.list.length === 0) return null;
    const key = `${pn}|${typeCode}`;
    let a = this.memo.get(key);
    if (a === undefined) {
      const hits = this.list.filter((b) => bindingCovers(b, pn, typeCode));
      a = hits.length === 0 ? null : new Set(hits.map((b) => b.devcode));
      this.memo.set(key, a);
    }
    return a;
  }

  private reload(): Promise<void> {
    if (!this.loading) {
      const started = this.now();
      this.loading = this.db()
        .selectFrom('protocol_bindings')
        .select(['devcode', 'scope', 'type_code', 'pn_from', 'pn_to'])
        .where('enabled', '=', 1)
        .execute()
        .then((rows) => {
          this.list = rows.map((r) => ({
            devcode: Number(r.devcode),
            scope: r.scope,
            typeCode: r.type_code,
            pnFrom: r.pn_from,
            pnTo: r.pn_to,
          }));
          this.memo.clear();
          this.loadedAt = started;
        })
        .finally(() => {
          this.loading = undefined;
        });
    }
    return this.loading;
  }
}
