import { siteConditions, type SiteConditions } from './pv.js';
import { clamp, hashString, smoothNoise } from './random.js';

/**
 * The environment monitor's view of a site (devcode 5125): what its pyranometer, temperature
 * probes and anemometer read, from the same sun and weather models that drive the plant's PV
 * (so irradiance and PV power rise and fall together).
 */

export interface EnvSite {
  lat: number;
  lon: number;
  tzOffset: number;
  seed: number;
}

export interface EnvReading {
  /** Plane-of-array irradiance, W/m². */
  irradiance: number;
  /** Back-of-module temperature, °C. */
  moduleC: number;
  ambientC: number;
  /** m/s and degrees from north. */
  windMs: number;
  windDeg: number;
  /** Irradiation since local midnight, kWh/m². */
  irradiationKWhM2: number;
}

const DAY_MS = 86_400_000;
const SLOT_MS = 10 * 60_000;
const SLOTS = DAY_MS / SLOT_MS;

/**
 * Wind speed (m/s): a seeded smooth gust field over a site's mean, stronger in the afternoon.
 * Never negative, rarely above 15.
 */
export function windSpeed(site: EnvSite, ms: number): number {
  const local = ms + site.tzOffset * 1000;
  const hour = (((local % DAY_MS) + DAY_MS) % DAY_MS) / 3_600_000;
  const mean = 2.5 + (site.seed % 5) * 0.6;
  const diurnal = 1 + 0.35 * Math.cos((2 * Math.PI * (hour - 15)) / 24);
  const slow = smoothNoise(site.seed ^ 0x7f4a7c15, ms, 3 * 3_600_000);
  const gust = smoothNoise(site.seed ^ 0x1b873593, ms, 10 * 60_000);
  return clamp(mean * diurnal * (0.4 + 1.2 * slow) + (gust - 0.5) * 2, 0, 25);
}

/** Wind direction (°), slowly veering around the site's prevailing direction. */
export function windDirection(site: EnvSite, ms: number): number {
  const prevailing = site.seed % 360;
  const swing = (smoothNoise(site.seed ^ 0x3c6ef372, ms, 6 * 3_600_000) - 0.5) * 120;
  return (((prevailing + swing) % 360) + 360) % 360;
}

/** Back-of-module temperature: the PV model's cell temperature, cooled by wind. */
export function moduleTemperature(cond: SiteConditions, windMs: number): number {
  return cond.ambientC + (cond.cellC - cond.ambientC) * (1 / (1 + 0.12 * windMs));
}

/** Prefix sums of irradiation (kWh/m²) per 10-minute slot of one local day, by site and day. */
const DAY_CACHE = new Map<string, Float64Array>();
const CACHE_MAX = 512;

function dayPrefix(site: EnvSite, dayStartMs: number): Float64Array {
  const key = `${site.seed}/${site.lat}/${site.lon}/${dayStartMs}`;
  let p = DAY_CACHE.get(key);
  if (p) return p;
  p = new Float64Array(SLOTS + 1);
  for (let i = 0; i < SLOTS; i++) {
    // Midpoint rule over each slot.
    const poa = siteConditions(site, dayStartMs + i * SLOT_MS + SLOT_MS / 2).poa;
    p[i + 1] = p[i]! + (poa * SLOT_MS) / 3_600_000 / 1000;
  }
  if (DAY_CACHE.size >= CACHE_MAX) DAY_CACHE.delete(DAY_CACHE.keys().next().value!);
  DAY_CACHE.set(key, p);
  return p;
}

/** Irradiation (kWh/m²) from local midnight to `ms`. */
export function dailyIrradiation(site: EnvSite, ms: number): number {
  const local = ms + site.tzOffset * 1000;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS - site.tzOffset * 1000;
  const into = ms - dayStart;
  const slot = Math.floor(into / SLOT_MS);
  const p = dayPrefix(site, dayStart);
  const partial = slot < SLOTS ? siteConditions(site, dayStart + slot * SLOT_MS + SLOT_MS / 2).poa : 0;
  return p[slot]! + (partial * (into - slot * SLOT_MS)) / 3_600_000 / 1000;
}

/** Everything the environment monitor reads at `ms`. */
export function envReading(site: EnvSite, ms: number, cond: SiteConditions = siteConditions(site, ms)): EnvReading {
  const windMs = windSpeed(site, ms);
  return {
    irradiance: Math.max(0, cond.poa),
    moduleC: moduleTemperature(cond, windMs),
    ambientC: cond.ambientC,
    windMs,
    windDeg: windDirection(site, ms),
    irradiationKWhM2: dailyIrradiation(site, ms),
  };
}

/** The env site of a datalogger's site and seed. */
export function envSite(site: { lat: number; lon: number; tzOffset: number }, seed: number | string): EnvSite {
  return { lat: site.lat, lon: site.lon, tzOffset: site.tzOffset, seed: typeof seed === 'number' ? seed : hashString(seed) };
}
