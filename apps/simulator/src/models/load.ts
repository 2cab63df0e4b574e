import { clamp, gaussian, rand, smoothNoise } from './random.js';

/** A household's consumption: daily energy and how peaky it is. */
export interface LoadProfile {
  /** Average energy per day, kWh. */
  dailyKWh: number;
  /** Always-on share of the average power (fridge, standby), 0..1. */
  baseShare?: number;
  /** Upper bound of the instantaneous load, W (the inverter's rating). */
  maxW?: number;
}

const DAY_MS = 86_400_000;

function bump(hour: number, centre: number, width: number): number {
  const d = hour - centre;
  return Math.exp(-(d * d) / (2 * width * width));
}

/**
 * Relative shape of household demand over a local day (mean ≈ 1): night base, a morning peak
 * (later and broader at weekends), some midday use (more at weekends) and the evening peak.
 */
export function loadShape(hour: number, weekend: boolean): number {
  const morning = weekend ? 1.1 * bump(hour, 9.5, 1.6) : 1.3 * bump(hour, 7.2, 0.9);
  const midday = weekend ? 0.8 * bump(hour, 13, 2.5) : 0.35 * bump(hour, 12.5, 2);
  const evening = 2.1 * bump(hour, 19.6, 1.7);
  const night = 0.45;
  // Normalise so the daily mean is about 1 (integral of the terms above / 24).
  const mean = weekend
    ? 0.45 + ((1.1 * 1.6 + 0.8 * 2.5 + 2.1 * 1.7) * 2.5066) / 24
    : 0.45 + ((1.3 * 0.9 + 0.35 * 2 + 2.1 * 1.7) * 2.5066) / 24;
  return (night + morning + midday + evening) / mean;
}

/** Local weekday (0 = Sunday) of an instant for a UTC offset in seconds. */
export function localWeekday(ms: number, tzOffsetS: number): number {
  const day = Math.floor((ms + tzOffsetS * 1000) / DAY_MS);
  return (((day + 4) % 7) + 7) % 7; // 1 Jan 1970 was a Thursday
}

export function localHour(ms: number, tzOffsetS: number): number {
  const local = ms + tzOffsetS * 1000;
  return (((local % DAY_MS) + DAY_MS) % DAY_MS) / 3_600_000;
}

/**
 * Household load in W at an instant: the profile's shape scaled to its daily energy, smooth
 * noise (±20 %), short appliance spikes (kettle, oven) and day-to-day variation.
 */
export function loadPower(profile: LoadProfile, seed: number, ms: number, tzOffsetS: number): number {
  const hour = localHour(ms, tzOffsetS);
  const wd = localWeekday(ms, tzOffsetS);
  const weekend = wd === 0 || wd === 6;
  const avgW = (profile.dailyKWh * 1000) / 24;
  const base = profile.baseShare ?? 0.35;
  const day = Math.floor((ms + tzOffsetS * 1000) / DAY_MS);
  const dayFactor = clamp(1 + 0.12 * gaussian(seed, day, 3), 0.7, 1.35);
  const shaped = avgW * (base + (1 - base) * loadShape(hour, weekend)) * dayFactor;
  const noise = 0.8 + 0.4 * smoothNoise(seed ^ 0x68e31da4, ms, 10 * 60_000);
  // Appliance spikes: a 5-minute slot has a spike with a probability that follows the shape.
  const slot = Math.floor(ms / 300_000);
  const spike = rand(seed, slot, 11) < 0.04 * loadShape(hour, weekend) ? 1200 + 1500 * rand(seed, slot, 12) : 0;
  return clamp(shaped * noise + spike, 40, profile.maxW ?? Infinity);
}
