/// <reference types="node" />
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The vendor reference answers live outside the repo: /work/main → ../shared/reference/devcodes
 * (SUNWATCH_REFERENCE_DIR overrides). Tests that need them skip when the folder is absent.
 */
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
export const REFERENCE_DIR = process.env.SUNWATCH_REFERENCE_DIR ?? resolve(repoRoot, '../shared/reference/devcodes');
export const HAVE_REFERENCE = existsSync(REFERENCE_DIR);
if (!HAVE_REFERENCE) {
  console.warn(`[devices] reference answers not found at ${REFERENCE_DIR}: reference comparisons are skipped`);
}

/** `dat` of a stored answer, e.g. refDat('2376/battery_mode', 'querySPDeviceLastData'). */
export function refDat<T = unknown>(dir: string, action: string): T {
  const raw = JSON.parse(readFileSync(resolve(REFERENCE_DIR, dir, `${action}.json`), 'utf8')) as {
    err: number;
    dat: T;
  };
  if (raw.err !== 0) throw new Error(`${dir}/${action}: err ${raw.err}`);
  return raw.dat;
}

export function hasRef(dir: string, action: string): boolean {
  return HAVE_REFERENCE && existsSync(resolve(REFERENCE_DIR, dir, `${action}.json`));
}

/** Deterministic PRNG for property tests. */
export { mulberry32 as rng } from '../random.js';
