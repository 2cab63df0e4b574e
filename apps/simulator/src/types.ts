import type { BatteryParams } from './models/battery.js';
import type { LoadProfile } from './models/load.js';

/** Where a datalogger is: a real place and its (standard-time) UTC offset. */
export interface SiteSpec {
  city: string;
  country: string;
  lat: number;
  lon: number;
  /** Seconds east of UTC. */
  tzOffset: number;
  /** Nominal grid voltage (phase) and frequency. */
  gridV?: number;
  gridHz?: 50 | 60;
  address?: string;
}

/** A device behind the datalogger, and how its samples travel: raw registers or named values. */
export interface DeviceSpec {
  devcode: number;
  /** RS-485 address. */
  devaddr: number;
  sn: string;
  encoding: 'registers' | 'values';
  /** The device's firmware version (a device upgrade through the datalogger changes it). */
  firmware?: string;
}

/** The physical system the devices observe. */
export interface SystemSpec {
  /** PV array peak power, kWp (0 = no PV). */
  pvKWp: number;
  battery?: BatteryParams;
  load: LoadProfile;
  /** Grid-tie systems export surplus; off-grid hybrids curtail PV instead. */
  exportAllowed: boolean;
}

export interface DataloggerSpec {
  /** 14 characters, first an uppercase letter, letters and digits (protocol rules). */
  pn: string;
  /** Device token: MQTT password / HTTP bearer. */
  token?: string;
  /** Seed of weather, load noise, faults and offline spells (default: hash of the PN). */
  seed?: number;
  site: SiteSpec;
  system: SystemSpec;
  /** 1–3 devices. */
  devices: DeviceSpec[];
  /** Seconds between frames. */
  collectInterval: number;
  /** Seconds between heartbeats. */
  heartbeatInterval: number;
  firmware?: string;
  /**
   * Raw Ed25519 public keys (base64) whose signatures this datalogger accepts on a firmware image
   * (provisioned at the factory; issue 13). Unset: the demo manufacturer's key only.
   */
  trustedFirmwareKeys?: string[];
  /** Probabilities per device-hour of a warning and of a fault (defaults 0.01 and 0.002). */
  warningRate?: number;
  faultRate?: number;
  /**
   * Faults forced on devices: device SN → a fault code of its definition, reported in every frame
   * (whatever the spells) until removed (`forceFault`, CLI `--fault <SN>=<code>`). For tests and
   * demos that need a fault now, e.g. issue 11's fault → alarm → mail test.
   */
  faults?: Record<string, number>;
  /** Probability per hour of an offline spell of 5–40 minutes (default 0.01; 0 = never). */
  offlineRate?: number;
}

export interface FleetSpec {
  dataloggers: DataloggerSpec[];
}
