import { defineConfig } from 'vitest/config';

// Browser flows: each spec file starts its own server (own data directory, free ports) and a
// headless system Chromium, so files are independent. Three files run at a time: a flow spends most
// of its time waiting on the page, the server or the simulated fleet (with two at a time the whole
// suite used 0.7 of the CI machine's two cores; docs/decisions.md "CI time (session 25)").
// `E2E_WORKERS=1` runs them one after another.
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 3) || 3);
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    environment: 'node',
    include: ['*.spec.ts'],
    pool: 'forks',
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // expect.poll gives up after 1 s by default: a page that reloads and fetches its list can take
    // longer than that on a busy 2-core CI machine with two flows running side by side (a follow
    // flow failed so in CI). A poll stops as soon as its matcher succeeds, so a longer ceiling only
    // costs time when the flow is really broken.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    // On CI a failed flow runs once more before it fails the run: a flow drives a real browser, a
    // real server and a live simulated fleet on a 2-core machine, and a click can land on an
    // element that is re-rendering (a phone-layout language pick missed 30 s of tries once in a
    // full run and passed alone, session 26). A retried flow is reported in the run's output; a
    // flow that fails twice fails CI. Locally it fails at once.
    retry: process.env.CI ? 1 : 0,
    // `.only` fails the run on CI instead of silently skipping the other tests (eslint forbids it too).
    allowOnly: !process.env.CI,
  },
});
