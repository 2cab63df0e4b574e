/**
 * First-load byte budget of the web app (issue 8): starts the real server with the built SPA
 * (apps/web/dist; build it first, or pass --build), opens every route of BUDGET_ROUTES in
 * headless Chromium signed in as an account that may open it, and prints per route the bytes
 * transferred (as sent: gzip/brotli when the server compressed) of JS, CSS and other, against
 * the route's JS budget. Never fails on time; exits 1 when a route is over the size CI enforces
 * (its budget, or its ceiling while it is not within budget yet).
 *
 *   npm run bench:web-budget [-- --build] [--locale de-DE] [--files] [--only <part of a path>] [--encoding gzip|browser]
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { REPO_ROOT, startHarness } from '../../e2e/harness.ts';
import {
  BUDGET_ROUTES,
  Sessions,
  formatTable,
  kb,
  measureRoute,
  overBudget,
  overEnforced,
  type RouteMeasure,
} from './measure.ts';

const { values } = parseArgs({
  options: {
    build: { type: 'boolean', default: false },
    locale: { type: 'string', default: 'en-US' },
    files: { type: 'boolean', default: false },
    only: { type: 'string' },
    encoding: { type: 'string', default: 'gzip' },
  },
});

if (values.build) {
  execFileSync('npm', ['run', 'build', '-w', '@sunwatch/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

const harness = await startHarness();
const sessions = new Sessions(harness, values.locale);
const measures: RouteMeasure[] = [];
try {
  for (const route of BUDGET_ROUTES.filter((r) => !values.only || r.path.includes(values.only))) {
    const m = await measureRoute(sessions, route, values.encoding === 'browser' ? 'browser' : 'gzip');
    measures.push(m);
    if (values.files) {
      console.log(`\n${route.path} (${route.account ?? 'signed out'})`);
      for (const t of [...m.transfers].sort((a, b) => b.bytes - a.bytes)) {
        console.log(
          `  ${kb(t.bytes).padStart(7)} KB  ${t.type.padEnd(5)} ${t.encoding.padEnd(4)} ${new URL(t.url).pathname}`,
        );
      }
    }
  }
} finally {
  await sessions.close();
  await harness.close();
}

console.log(
  `\nTransferred bytes per route, first visit (cache disabled), browser locale ${values.locale}, encoding ${values.encoding}:\n`,
);
console.log(formatTable(measures));
const over = measures.filter(overBudget);
const failing = measures.filter(overEnforced);
console.log(
  over.length
    ? `\n${over.length} route(s) over budget, ${failing.length} over what CI enforces.`
    : '\nEvery route within its budget.',
);
process.exitCode = failing.length ? 1 : 0;
