import { clearSkyGhi, planeOfArray, solarPosition } from './sun.js';
import { ambientTemperature, climateClearness, cloudFactor } from './weather.js';

export interface PvArray {
  /** Peak DC power, kWp. */
  kWp: number;
  /** System derate (wiring, soiling, inverter efficiency), 0..1. */
  derate?: number;
  /** Power temperature coefficient per °C (crystalline silicon ≈ −0.004). */
  tempCoeff?: number;
  /** AC limit of the inverter(s), W (clipping). */
  acLimitW?: number;
}

/** Cell temperature from ambient and irradiance (NOCT 45 °C model). */
export function cellTemperature(ambientC: number, poa: number): number {
  return ambientC + (poa / 800) * (45 - 20);
}

/** PV AC power in W for a plane-of-array irradiance (W/m²) and ambient temperature (°C). */
export function pvPower(array: PvArray, poa: number, ambientC: number): number {
  if (poa <= 0) return 0;
  const derate = array.derate ?? 0.86;
  const gamma = array.tempCoeff ?? -0.004;
  const tCell = cellTemperature(ambientC, poa);
  const w = array.kWp * 1000 * (poa / 1000) * derate * (1 + gamma * (tCell - 25));
  return Math.max(0, Math.min(array.acLimitW ?? Infinity, w));
}

export interface SiteConditions {
  elevation: number;
  ghi: number;
  poa: number;
  cloud: number;
  ambientC: number;
  cellC: number;
}

/** Sun and weather at a site and instant (seeded weather). */
export function siteConditions(
  site: { lat: number; lon: number; tzOffset: number; seed: number },
  ms: number,
): SiteConditions {
  const { elevation } = solarPosition(site.lat, site.lon, ms);
  const cloud = cloudFactor(site.seed, ms, site.tzOffset, climateClearness(site.lat));
  const ghi = clearSkyGhi(elevation) * cloud;
  const poa = planeOfArray(ghi, elevation);
  const ambientC = ambientTemperature(site.seed, site.lat, ms, site.tzOffset);
  return { elevation, ghi, poa, cloud, ambientC, cellC: cellTemperature(ambientC, poa) };
}
