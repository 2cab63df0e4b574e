import pg from 'pg';

/**
 * Drops a scratch database of a test file. `WITH (FORCE)` ends the connections still open on it;
 * on a PostgreSQL server shared with other work it can still fail for a moment (a backend of
 * another role being terminated, a connection arriving as it drops), so it retries a few times
 * and then warns: a leftover scratch database must not fail the tests that used it.
 */
export async function dropScratchDatabase(adminUrl: string, name: string): Promise<void> {
  let last: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const c = new pg.Client({ connectionString: adminUrl });
    try {
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      return;
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    } finally {
      await c.end().catch(() => undefined);
    }
  }
  console.warn(`[test] could not drop scratch database ${name}: ${(last as Error)?.message ?? String(last)}`);
}
