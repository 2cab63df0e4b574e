/**
 * A sliding-window counter per client address and purpose, held in the instance's memory (one
 * per app context). Behind a load balancer each instance counts its own share, so the effective
 * limit is at most the limit times the number of instances: enough to stop bulk enumeration.
 */
export class AddressLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one hit for `key`; false when the window already holds `limit` hits. */
  hit(key: string): boolean {
    const now = this.now();
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.limit) {
      this.hits.set(key, list);
      return false;
    }
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 50_000) this.prune(since);
    return true;
  }

  /** Whether `key` may still hit without counting. */
  allowed(key: string): boolean {
    const since = this.now() - this.windowMs;
    return (this.hits.get(key) ?? []).filter((t) => t > since).length < this.limit;
  }

  private prune(since: number): void {
    for (const [k, v] of this.hits) if (!v.some((t) => t > since)) this.hits.delete(k);
  }
}
