import { getDefinition } from '@sunwatch/protocol';
import { CITIES } from './cities.js';
import { hashString, mulberry32 } from './models/random.js';
import type { DataloggerSpec, DeviceSpec, FleetSpec, SiteSpec, SystemSpec } from './types.js';

/** The system templates a generated fleet draws from (1–3 devices each, every shipped devcode). */
export const TOPOLOGIES = [
  { name: 'hybrid-2341+battery', devices: [2341, 5123] },
  { name: 'gridtie-5121+meter', devices: [5121, 5124] },
  { name: 'offgrid-2376', devices: [2376] },
  { name: 'offgrid-2428+battery', devices: [2428, 5123] },
  { name: 'micro-5122x2+meter', devices: [5122, 5122, 5124] },
  { name: 'gridtie-5121', devices: [5121] },
  { name: 'hybrid-2376+meter', devices: [2376, 5124] },
  { name: 'micro-5122', devices: [5122] },
] as const;

const PN_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** A PN per the protocol rules: 14 characters, first an uppercase letter, letters and digits. */
export function makePn(prefix: string, n: number, rnd: () => number): string {
  const head = (prefix.toUpperCase().replace(/[^A-Z0-9]/g, '') || 'SW').slice(0, 4);
  const tail = Array.from({ length: 4 }, () => PN_ALPHABET[Math.floor(rnd() * PN_ALPHABET.length)]).join('');
  const pn = `${/^[A-Z]/.test(head) ? head : `S${head}`}${String(n).padStart(6, '0')}${tail}`.slice(0, 14);
  return pn.padEnd(14, '0');
}

/** Serial number of a device: model letters + PN tail + address. */
function makeSn(pn: string, devcode: number, addr: number): string {
  return `SW${devcode}${pn.slice(-8)}${String(addr).padStart(2, '0')}`;
}

/** A system sized for its devices: PV per inverter rating, a battery when a hybrid or BMS is present. */
export function sizeSystem(devcodes: readonly number[], rnd: () => number): SystemSpec {
  const rated = (dc: number) => getDefinition(dc)?.ratedPower ?? 0;
  const pvRated = devcodes.filter((d) => d !== 5123 && d !== 5124).reduce((s, d) => s + rated(d), 0);
  const hybrid = devcodes.some((d) => d === 2341 || d === 2376 || d === 2428);
  const hasBattery = hybrid || devcodes.includes(5123);
  const dcAc = 1.05 + rnd() * 0.2;
  const pvKWp = Math.round((pvRated / 1000) * dcAc * 10) / 10;
  const capacityKWh = hasBattery ? (devcodes.includes(2428) ? 5.12 : 5.12 * (1 + Math.floor(rnd() * 3))) : 0;
  const battery = hasBattery
    ? {
        capacityKWh,
        maxChargeW: Math.min(5000, capacityKWh * 600),
        maxDischargeW: Math.min(5000, capacityKWh * 700),
        minSoc: 10,
        maxSoc: 100,
        efficiency: 0.92,
      }
    : undefined;
  return {
    pvKWp,
    battery,
    load: { dailyKWh: Math.round((6 + rnd() * 12) * (hybrid ? 0.7 : 1) * 10) / 10 },
    exportAllowed: !hybrid,
  };
}

export interface BuildFleetOptions {
  count: number;
  seed?: number;
  /** PN prefix (letters/digits; first uppercase letter). */
  prefix?: string;
  collectInterval?: number;
  heartbeatInterval?: number;
  /** Default each datalogger's offline spells; 0 disables. */
  offlineRate?: number;
  sites?: readonly SiteSpec[];
}

/**
 * A deterministic fleet of `count` dataloggers at real places, each with one of TOPOLOGIES.
 * Devices alternate between register frames and value frames so both paths are exercised.
 */
export function buildFleet(opts: BuildFleetOptions): FleetSpec {
  const rnd = mulberry32(opts.seed ?? 20260101);
  const sites = opts.sites ?? CITIES;
  const dataloggers: DataloggerSpec[] = [];
  for (let i = 0; i < opts.count; i++) {
    const topo = TOPOLOGIES[i % TOPOLOGIES.length]!;
    const site = sites[(i * 7) % sites.length]!;
    const pn = makePn(opts.prefix ?? 'SIMW', i + 1, rnd);
    const devices: DeviceSpec[] = topo.devices.map((devcode, k) => ({
      devcode,
      devaddr: k + 1,
      sn: makeSn(pn, devcode, k + 1),
      encoding: (Math.floor(i / TOPOLOGIES.length) + i + k) % 2 === 0 ? 'registers' : 'values',
    }));
    dataloggers.push({
      pn,
      seed: hashString(pn),
      site,
      system: sizeSystem(topo.devices, rnd),
      devices,
      collectInterval: opts.collectInterval ?? 300,
      heartbeatInterval: opts.heartbeatInterval ?? 60,
      offlineRate: opts.offlineRate,
    });
  }
  return { dataloggers };
}
