/**
 * Solar position after the NOAA solar calculator (Meeus, low precision): declination and
 * equation of time from the Julian century, hour angle from true solar time, then elevation.
 * Accurate to a few tenths of a degree — plenty for a PV simulation.
 */

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

export interface SolarPosition {
  /** Degrees above the horizon (negative at night). */
  elevation: number;
  /** Degrees clockwise from north. */
  azimuth: number;
  /** Solar declination, degrees. */
  declination: number;
  /** Hour angle, degrees (0 at solar noon, negative in the morning). */
  hourAngle: number;
  /** Equation of time, minutes. */
  equationOfTime: number;
}

function julianCentury(ms: number): number {
  const jd = ms / 86_400_000 + 2440587.5;
  return (jd - 2451545) / 36525;
}

function sunCore(ms: number): { declination: number; equationOfTime: number } {
  const T = julianCentury(ms);
  const L0 = (((280.46646 + T * (36000.76983 + T * 0.0003032)) % 360) + 360) % 360;
  const M = 357.52911 + T * (35999.05029 - 0.0001537 * T);
  const e = 0.016708634 - T * (0.000042037 + 0.0000001267 * T);
  const C =
    Math.sin(M * RAD) * (1.914602 - T * (0.004817 + 0.000014 * T)) +
    Math.sin(2 * M * RAD) * (0.019993 - 0.000101 * T) +
    Math.sin(3 * M * RAD) * 0.000289;
  const omega = 125.04 - 1934.136 * T;
  const lambda = L0 + C - 0.00569 - 0.00478 * Math.sin(omega * RAD);
  const eps0 = 23 + (26 + (21.448 - T * (46.815 + T * (0.00059 - T * 0.001813))) / 60) / 60;
  const eps = eps0 + 0.00256 * Math.cos(omega * RAD);
  const declination = Math.asin(Math.sin(eps * RAD) * Math.sin(lambda * RAD)) * DEG;
  const y = Math.tan((eps / 2) * RAD) ** 2;
  const eot =
    4 *
    DEG *
    (y * Math.sin(2 * L0 * RAD) -
      2 * e * Math.sin(M * RAD) +
      4 * e * y * Math.sin(M * RAD) * Math.cos(2 * L0 * RAD) -
      0.5 * y * y * Math.sin(4 * L0 * RAD) -
      1.25 * e * e * Math.sin(2 * M * RAD));
  return { declination, equationOfTime: eot };
}

/** Sun position for a place (degrees, east and north positive) at an instant (epoch ms). */
export function solarPosition(lat: number, lon: number, ms: number): SolarPosition {
  const { declination, equationOfTime } = sunCore(ms);
  const utcMinutes = (((ms % 86_400_000) + 86_400_000) % 86_400_000) / 60_000;
  const trueSolar = (((utcMinutes + equationOfTime + 4 * lon) % 1440) + 1440) % 1440;
  const hourAngle = trueSolar / 4 - 180;
  const cosZ =
    Math.sin(lat * RAD) * Math.sin(declination * RAD) +
    Math.cos(lat * RAD) * Math.cos(declination * RAD) * Math.cos(hourAngle * RAD);
  const zenith = Math.acos(Math.min(1, Math.max(-1, cosZ))) * DEG;
  const sinZ = Math.sin(zenith * RAD);
  let azimuth = 180;
  if (sinZ > 1e-9) {
    const cosAz = (Math.sin(lat * RAD) * cosZ - Math.sin(declination * RAD)) / (Math.cos(lat * RAD) * sinZ);
    const a = Math.acos(Math.min(1, Math.max(-1, cosAz))) * DEG;
    azimuth = hourAngle > 0 ? (a + 180) % 360 : (540 - a) % 360;
  }
  return { elevation: 90 - zenith, azimuth, declination, hourAngle, equationOfTime };
}

/** Solar noon of the UTC day containing `ms`, as epoch ms. */
export function solarNoon(lon: number, ms: number): number {
  const day = Math.floor(ms / 86_400_000) * 86_400_000;
  const { equationOfTime } = sunCore(day + 43_200_000);
  return day + (720 - 4 * lon - equationOfTime) * 60_000;
}

/**
 * Clear-sky global horizontal irradiance (W/m², Haurwitz model) for a solar elevation in degrees.
 * 0 when the sun is below the horizon.
 */
export function clearSkyGhi(elevationDeg: number): number {
  if (elevationDeg <= 0) return 0;
  const cosZ = Math.sin(elevationDeg * RAD);
  return 1098 * cosZ * Math.exp(-0.057 / cosZ);
}

/**
 * Irradiance on a module tilted towards the equator at roughly the latitude: a simple gain on
 * GHI that grows when the sun is low (limited, so it stays plausible). W/m².
 */
export function planeOfArray(ghi: number, elevationDeg: number): number {
  if (ghi <= 0 || elevationDeg <= 0) return 0;
  const gain = Math.min(1.35, 1 + 0.35 * Math.cos(elevationDeg * RAD) ** 2);
  return ghi * gain;
}
