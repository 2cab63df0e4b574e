import { clamp, rand, smoothNoise } from './random.js';

/**
 * Weather per site: a day-to-day Markov chain of sky states (clear → partly cloudy → overcast)
 * and, within a day, smooth cloud noise (value noise with 20-minute knots). Everything is a pure
 * function of (site seed, time), so any instant can be evaluated without running the chain
 * from the beginning: a day's state is found by walking the chain from a fixed number of days
 * earlier (its influence has long decayed by then).
 */

export const SKY = ['clear', 'partly', 'overcast'] as const;
export type Sky = (typeof SKY)[number];

/** Transition probabilities from → to (rows sum to 1). */
const TRANSITIONS: readonly (readonly number[])[] = [
  [0.7, 0.22, 0.08],
  [0.3, 0.45, 0.25],
  [0.2, 0.4, 0.4],
];
/** Cloud transmission of a sky state: mean and spread of the noise. */
const SKY_TRANSMISSION: readonly { mean: number; spread: number }[] = [
  { mean: 0.97, spread: 0.06 },
  { mean: 0.7, spread: 0.5 },
  { mean: 0.28, spread: 0.2 },
];

const WALK_DAYS = 16;
const KNOT_MS = 20 * 60_000;
const DAY_MS = 86_400_000;

/**
 * How much clearer a site's climate is than the base chain, 0..1: subtropical dry belts (Cairo,
 * Dubai, Phoenix, Perth, Seville) see far more clear days; the base chain fits temperate sites.
 */
export function climateClearness(lat: number): number {
  const a = Math.abs(lat);
  return a >= 15 && a <= 38 ? 0.5 : 0;
}

function next(seed: number, from: number, day: number, clearness: number): number {
  const u = rand(seed, day, 77);
  const base = TRANSITIONS[from]!;
  const row = [base[0]! + clearness * (base[1]! + base[2]!), base[1]! * (1 - clearness), base[2]! * (1 - clearness)];
  let acc = 0;
  for (let i = 0; i < row.length; i++) {
    acc += row[i]!;
    if (u < acc) return i;
  }
  return row.length - 1;
}

const cache = new Map<string, number>();

/** Sky state index of a site's day (`day` = days since the epoch in the site's local time). */
export function skyIndex(seed: number, day: number, clearness = 0): number {
  const key = `${seed}:${day}:${clearness}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let s = Math.floor(rand(seed, day - WALK_DAYS, 5) * 3);
  for (let d = day - WALK_DAYS + 1; d <= day; d++) s = next(seed, s, d, clearness);
  if (cache.size > 50_000) cache.clear();
  cache.set(key, s);
  return s;
}

export function skyOf(seed: number, day: number, clearness = 0): Sky {
  return SKY[skyIndex(seed, day, clearness)]!;
}

/**
 * Fraction of clear-sky irradiance that reaches the ground, 0.05..1, at `ms` for a site whose
 * local time is UTC + `tzOffsetS`. Smooth in time; differs per site (seed); `clearness` see
 * `climateClearness`.
 */
export function cloudFactor(seed: number, ms: number, tzOffsetS: number, clearness = 0): number {
  const local = ms + tzOffsetS * 1000;
  const day = Math.floor(local / DAY_MS);
  const { mean, spread } = SKY_TRANSMISSION[skyIndex(seed, day, clearness)]!;
  const n = smoothNoise(seed ^ 0x5bd1e995, local, KNOT_MS) - 0.5;
  return clamp(mean + spread * n * 2, 0.05, 1);
}

/**
 * Ambient temperature (°C): latitude- and season-dependent mean, a diurnal swing peaking mid-
 * afternoon (smaller under clouds), and a little noise.
 */
export function ambientTemperature(seed: number, lat: number, ms: number, tzOffsetS: number): number {
  const local = ms + tzOffsetS * 1000;
  const dayOfYear = (local / DAY_MS) % 365.2422; // epoch day 0 = 1 Jan 1970
  const hour = (((local % DAY_MS) + DAY_MS) % DAY_MS) / 3_600_000;
  const absLat = Math.abs(lat);
  const annualMean = 28 - 0.32 * absLat;
  const seasonAmp = 2 + 0.22 * absLat;
  // Warmest around day 200 in the north, day 20 in the south.
  const season = Math.cos((2 * Math.PI * (dayOfYear - (lat >= 0 ? 200 : 20))) / 365.2422);
  const sky = skyIndex(seed, Math.floor(local / DAY_MS), climateClearness(lat));
  const swing = [6, 4.5, 2.5][sky]!;
  const diurnal = Math.cos((2 * Math.PI * (hour - 15)) / 24);
  const noise = (smoothNoise(seed ^ 0x2545f491, local, 3 * 3_600_000) - 0.5) * 3;
  return annualMean + seasonAmp * season + swing * diurnal + noise;
}
