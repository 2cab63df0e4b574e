/**
 * Deterministic randomness. Everything the simulator draws is a pure function of a seed and
 * integer coordinates (site, day, knot index …), so history and live runs produce the same
 * weather and the same frames for the same time.
 */

/** 32-bit string hash (FNV-1a with a murmur finaliser). */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h);
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform [0, 1) from a seed and integer coordinates (stateless). */
export function rand(seed: number, ...coords: number[]): number {
  let h = fmix(seed ^ 0x9e3779b9);
  for (const c of coords) {
    // Split doubles beyond 32 bits so large indices (epoch minutes) still mix fully.
    const lo = c | 0;
    const hi = Math.floor(c / 4294967296) | 0;
    h = fmix((h ^ lo) + 0x7f4a7c15);
    h = fmix((h ^ hi) + 0x165667b1);
  }
  return h / 4294967296;
}

/** Standard normal from two uniforms (Box–Muller). */
export function gaussian(seed: number, ...coords: number[]): number {
  const u = Math.max(rand(seed, ...coords, 1), 1e-12);
  const v = rand(seed, ...coords, 2);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Sequential PRNG for building fleets: the protocol package's mulberry32. */
export { mulberry32 } from '@sunwatch/protocol';

/** Smooth value noise in [0, 1]: random knots every `knotMs`, cosine-interpolated. */
export function smoothNoise(seed: number, t: number, knotMs: number): number {
  const k = Math.floor(t / knotMs);
  const f = (t - k * knotMs) / knotMs;
  const a = rand(seed, k);
  const b = rand(seed, k + 1);
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return a * (1 - w) + b * w;
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
