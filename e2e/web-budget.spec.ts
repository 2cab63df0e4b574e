/**
 * First-load byte budget (issue 8): every route of BUDGET_ROUTES, opened as a first visit
 * (cache disabled) by an account that may open it, stays within its budget of JavaScript as
 * transferred (or, for a route not within budget yet, within its documented ceiling: a ratchet); the app's scripts and styles come compressed; a route shows its own page (no
 * redirect to /entry or /401 that would measure another page). Sizes, never times. The same
 * measuring code prints the table in `npm run bench:web-budget` (bench/web-budget/).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUDGET_KB,
  BUDGET_ROUTES,
  KB,
  Sessions,
  enforcedKB,
  kb,
  measureRoute,
  uncompressedAssets,
} from '../bench/web-budget/measure.ts';
import { useHarness } from './harness.ts';

const h = useHarness();
let sessions: Sessions | undefined;
const session = () => (sessions ??= new Sessions(h()));
afterAll(async () => {
  await sessions?.close();
});

describe('first-load byte budget', () => {
  it("the budgets are the issue's: entry ≤ 200 KB, every landing page ≤ 450 KB of JS", () => {
    expect(BUDGET_ROUTES.filter((r) => r.kind === 'entry').map((r) => [r.path, r.budgetKB])).toEqual([['/entry', 200]]);
    const landings = BUDGET_ROUTES.filter((r) => r.kind === 'landing');
    expect(landings.length).toBeGreaterThanOrEqual(6);
    for (const r of landings) expect(r.budgetKB, r.path).toBeLessThanOrEqual(BUDGET_KB.page);
  });

  for (const route of BUDGET_ROUTES) {
    const limit = enforcedKB(route);
    const label = route.ceilingKB ? `ceiling ${limit} KB (budget ${route.budgetKB} KB not met yet)` : `${limit} KB`;
    it(`${route.path} (${route.account ?? 'signed out'}) ≤ ${label} JS`, async () => {
      const m = await measureRoute(session(), route);
      expect(m.finalPath, 'the route opened its own page').toBe(route.path);
      const files = m.transfers.filter((t) => t.type === 'js').length;
      expect(files, 'scripts were loaded (and counted)').toBeGreaterThan(0);
      expect(
        uncompressedAssets(m).map((t) => new URL(t.url).pathname),
        'scripts and styles sent compressed',
      ).toEqual([]);
      const biggest = [...m.transfers]
        .filter((t) => t.type === 'js')
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 8)
        .map((t) => `${kb(t.bytes)} KB ${new URL(t.url).pathname}`)
        .join('\n  ');
      expect(m.js, `JS ${kb(m.js)} KB > ${label}; biggest:\n  ${biggest}`).toBeLessThanOrEqual(limit * KB);
    });
  }
});
