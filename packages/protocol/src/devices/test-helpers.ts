/// <reference types="node" />
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The vendor reference answers live outside the repo: /work/main → ../shared/reference/devcodes
 * (SUNWATCH_REFERENCE_DIR overrides). Tests that need them skip when the folder is absent —
 * unless SUNWATCH_REQUIRE_REFERENCE=1 (CI sets it, like SUNWATCH_REQUIRE_PG): then a missing
 * folder or a missing answer file fails the test run instead of skipping silently.
 */
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
export const REFERENCE_DIR = process.env.SUNWATCH_REFERENCE_DIR ?? resolve(repoRoot, '../shared/reference/devcodes');
export const REQUIRE_REFERENCE = process.env.SUNWATCH_REQUIRE_REFERENCE === '1';

/**
 * Whether the reference comparisons run: true when `dir` exists; false (a loud warning, the
 * comparisons skip) when it does not; throws when it does not and `required`.
 */
export function referenceAvailable(dir: string, required: boolean, exists: (p: string) => boolean = existsSync): boolean {
  if (exists(dir)) return true;
  if (required) {
    throw new Error(
      `The vendor reference answers are required (SUNWATCH_REQUIRE_REFERENCE=1) but ${dir} does not exist ` +
        '(check out ../shared/reference next to the repository or set SUNWATCH_REFERENCE_DIR)',
    );
  }
  console.warn(
    `[devices] reference answers not found at ${dir}: the byte-for-byte reference comparisons are SKIPPED ` +
      '(SUNWATCH_REQUIRE_REFERENCE=1 turns this into a failure)',
  );
  return false;
}

export const HAVE_REFERENCE = referenceAvailable(REFERENCE_DIR, REQUIRE_REFERENCE);

/** `dat` of a stored answer, e.g. refDat('2376/battery_mode', 'querySPDeviceLastData'). */
export function refDat<T = unknown>(dir: string, action: string): T {
  const raw = JSON.parse(readFileSync(resolve(REFERENCE_DIR, dir, `${action}.json`), 'utf8')) as {
    err: number;
    dat: T;
  };
  if (raw.err !== 0) throw new Error(`${dir}/${action}: err ${raw.err}`);
  return raw.dat;
}

/**
 * Whether the stored answer `<dir>/<action>.json` exists (the test using it skips otherwise).
 * With SUNWATCH_REQUIRE_REFERENCE=1 a missing answer throws: no comparison may skip in CI.
 */
export function hasRef(dir: string, action: string): boolean {
  const file = resolve(REFERENCE_DIR, dir, `${action}.json`);
  const present = HAVE_REFERENCE && existsSync(file);
  if (!present && REQUIRE_REFERENCE) {
    throw new Error(`The vendor reference answer ${file} is required (SUNWATCH_REQUIRE_REFERENCE=1) but missing`);
  }
  return present;
}

/** Deterministic PRNG for property tests. */
export { mulberry32 as rng } from '../random.js';
