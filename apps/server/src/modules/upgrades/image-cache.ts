/**
 * Verified firmware images shared by the transfers of one instance (issue 13, fleet scale;
 * docs/firmware/engine.md "Fleet scale"). Keyed by (firmware id, SHA-256): an image is read from
 * the blob store and hashed once, and every transfer of it holds the same buffer (they only take
 * `subarray` views, never write). Least recently used images leave first once the cached bytes
 * exceed the limit; an image larger than the whole limit is loaded for its caller but not kept.
 * Concurrent first uses share one load; a failed load is forgotten (the next use tries again).
 */
export class ImageCache {
  private readonly entries = new Map<string, { bytes: Promise<Buffer>; size: number }>();
  private total = 0;
  /** Loads done (reads + hashes), for metrics and tests. */
  loads = 0;

  constructor(private readonly limitBytes: number) {}

  static key(firmwareId: number, sha256: string): string {
    return `${firmwareId}:${sha256.toLowerCase()}`;
  }

  /** Bytes currently held. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, size: number, load: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.bytes;
    }
    this.loads += 1;
    if (size > this.limitBytes) return load();
    const entry = { bytes: load(), size };
    this.entries.set(key, entry);
    this.total += size;
    entry.bytes.catch(() => this.drop(key, entry));
    this.evict(key);
    return entry.bytes;
  }

  /** Forgets an image (e.g. its firmware was deleted). */
  delete(key: string): void {
    const e = this.entries.get(key);
    if (e) this.drop(key, e);
  }

  private drop(key: string, entry: { size: number }): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }

  private evict(keep: string): void {
    for (const [k, e] of this.entries) {
      if (this.total <= this.limitBytes) return;
      if (k !== keep) this.drop(k, e);
    }
  }
}
