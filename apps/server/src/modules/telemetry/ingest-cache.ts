import type { Clock } from '../../shared/clock.js';
import type { IngestLookupRepository } from './ingest-lookups.repository.js';
import type { DataloggerEntry, DeviceEntry } from './ingest.types.js';

/** How long a datalogger (token, plant, timezone) and a device row are trusted without a lookup. */
export const DL_TTL_MS = 5_000;
export const DEV_TTL_MS = 60_000;

/**
 * Short-lived caches of the ingestion path: dataloggers by PN (token hash, plant, timezone,
 * registration) and device rows by identity key `dataloggerId|devcode|devaddr|sn`. Expiry follows
 * the injected clock. Concurrent lookups of one PN share one query (so its frames queue together).
 */
export class IngestLookupCache {
  private readonly dls = new Map<string, DataloggerEntry>();
  private readonly devs = new Map<string, DeviceEntry>();
  private readonly dlLookups = new Map<string, Promise<DataloggerEntry | undefined>>();

  constructor(
    private readonly lookups: Pick<IngestLookupRepository, 'dataloggersByPn'>,
    private readonly now: Clock,
  ) {}

  /** The datalogger behind a PN (cached a few seconds), or undefined. */
  datalogger(pn: string): Promise<DataloggerEntry | undefined> {
    const c = this.dls.get(pn);
    if (c && c.expires > this.now()) return Promise.resolve(c);
    let p = this.dlLookups.get(pn);
    if (!p) {
      p = this.loadDataloggers([pn])
        .then((m) => m.get(pn))
        .finally(() => this.dlLookups.delete(pn));
      this.dlLookups.set(pn, p);
    }
    return p;
  }

  /** The cached datalogger of a PN, expired or not, without a lookup (counting refused frames). */
  peekDatalogger(pn: string): DataloggerEntry | undefined {
    return this.dls.get(pn);
  }

  /** A cached, unexpired device row. */
  device(key: string): DeviceEntry | undefined {
    const c = this.devs.get(key);
    return c && c.expires > this.now() ? c : undefined;
  }

  /** Caches a device row for DEV_TTL_MS from now (sets its `expires`). */
  putDevice(key: string, entry: DeviceEntry): void {
    entry.expires = this.now() + DEV_TTL_MS;
    this.devs.set(key, entry);
  }

  /** Forget cached dataloggers/devices: one PN's (with its devices), or all. */
  invalidate(pn?: string): void {
    if (pn === undefined) {
      this.clear();
      return;
    }
    const dl = this.dls.get(pn);
    this.dls.delete(pn);
    if (dl) for (const [k, d] of this.devs) if (d.dataloggerId === dl.id) this.devs.delete(k);
  }

  clear(): void {
    this.dls.clear();
    this.devs.clear();
  }

  private async loadDataloggers(pns: string[]): Promise<Map<string, DataloggerEntry | undefined>> {
    const now = this.now();
    const rows = await this.lookups.dataloggersByPn(pns);
    const found = new Map(rows.map((r) => [r.pn, r]));
    const out = new Map<string, DataloggerEntry | undefined>();
    for (const pn of pns) {
      const r = found.get(pn);
      const e: DataloggerEntry | undefined = r
        ? {
            id: r.id,
            pn: r.pn,
            tokenHash: r.device_token_hash,
            projectId: r.project_id,
            tz: r.project_tz ?? r.tz_offset,
            createdAt: Number(r.created_at),
            typeCode: r.type_code,
            expires: now + DL_TTL_MS,
          }
        : undefined;
      if (e) this.dls.set(pn, e);
      else this.dls.delete(pn);
      out.set(pn, e);
    }
    return out;
  }
}
