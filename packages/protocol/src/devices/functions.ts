import { DATALOGGER_COMMANDS, type DataloggerCommandKind } from '../commands.js';
import { BAUD_RATES, FIRMWARE_TYPES, type FirmwareTypeKey } from '../firmware.js';
import { FLOW_NODES, type DeviceDefinition, type FlowNode } from './types.js';

/**
 * What a devcode and a datalogger type offer (issue 14, operator page `deviceFunction`), derived
 * from what the code really does — the definitions, the firmware types and the datalogger
 * commands — never from a table kept by hand beside them. A new control in a definition, a new
 * firmware type or a new command shows here without touching this file.
 */

/** Commands that reach a device behind the datalogger (debug tools of the device page). */
const DEVICE_DEBUG_COMMANDS: readonly DataloggerCommandKind[] = ['read', 'passthrough'];
/** Commands that manage the datalogger itself (upgrade transfer steps are the upgrade function). */
const DATALOGGER_OWN_COMMANDS: readonly DataloggerCommandKind[] = DATALOGGER_COMMANDS.filter(
  (c) => !c.startsWith('upgrade_') && !(['ctrl', 'read', 'passthrough'] as string[]).includes(c),
);

/** Spec §9 "Acceleration: Wi-Fi module dataloggers only": the communication methods that qualify. */
export function isWifiCommMethod(method: string): boolean {
  return /^wi-?fi$/i.test(method.trim());
}

/** Cellular dataloggers carry a flow card (data plan recharge): GPRS, 2G, 4G, LTE. */
export function isCellularCommMethod(method: string): boolean {
  return ['gprs', '2g', '4g', 'lte'].includes(method.trim().toLowerCase());
}

export interface DevcodeFunctions {
  devcode: number;
  /** Control fields a user may write (ctrlDevice), and how many read their value back. */
  controls: { count: number; readback: number; ids: string[] };
  /** Device firmware upgrade through the datalogger: the firmware types that target a device, baud rates. */
  upgrade: { firmwareTypes: FirmwareTypeKey[]; baudRates: number[] };
  /** Debug commands that reach the device (register read, raw passthrough). */
  debug: { commands: DataloggerCommandKind[] };
  /**
   * Acceleration (faster collection): priced by the parameter count; energy-flow acceleration needs
   * energy-flow items, detail/history acceleration chartable fields.
   */
  acceleration: { parameters: number; energyFlow: boolean; detail: boolean };
  /** Monitoring the definition feeds: energy-flow nodes, key parameters, alarm codes, energy counters. */
  monitoring: { flowNodes: FlowNode[]; keyParameters: number; faults: number; energyCounters: string[] };
}

export function devcodeFunctions(def: DeviceDefinition): DevcodeFunctions {
  const visible = def.fields.filter((f) => !f.internal);
  return {
    devcode: def.devcode,
    controls: {
      count: def.controls.length,
      readback: def.controls.filter((c) => c.readback !== undefined).length,
      ids: def.controls.map((c) => c.id),
    },
    upgrade: {
      firmwareTypes: FIRMWARE_TYPES.filter((t) => t.target === 1).map((t) => t.key),
      baudRates: [...BAUD_RATES],
    },
    debug: { commands: DATALOGGER_COMMANDS.filter((c) => DEVICE_DEBUG_COMMANDS.includes(c)) },
    acceleration: {
      parameters: visible.length,
      energyFlow: FLOW_NODES.some((n) => def.energyFlow[n].some((it) => it.field !== undefined)),
      detail: visible.some((f) => f.chart !== undefined),
    },
    monitoring: {
      flowNodes: FLOW_NODES.filter((n) => def.energyFlow[n].length > 0),
      keyParameters: def.keyParameters.length,
      faults: def.faults.length,
      energyCounters: Object.entries(def.energy)
        .filter(([, id]) => id !== undefined)
        .map(([k]) => k),
    },
  };
}

export interface DataloggerTypeFunctions {
  /** Commands the platform sends the datalogger itself (reboot, reset, unbind, debug, …). */
  commands: DataloggerCommandKind[];
  /** Datalogger firmware upgrade: the firmware types that target the datalogger. */
  upgrade: { firmwareTypes: FirmwareTypeKey[] };
  /** Debug (debugCollector): every datalogger that speaks the command protocol. */
  debug: boolean;
  /** Acceleration: only when the type's dataloggers are Wi-Fi modules. */
  acceleration: boolean;
  /** Flow card (data plan recharge): cellular dataloggers. */
  flowCard: boolean;
}

/** The functions of a datalogger type, from the communication methods its dataloggers report. */
export function dataloggerTypeFunctions(commMethods: readonly string[]): DataloggerTypeFunctions {
  return {
    commands: [...DATALOGGER_OWN_COMMANDS],
    upgrade: { firmwareTypes: FIRMWARE_TYPES.filter((t) => t.target === 0).map((t) => t.key) },
    debug: DATALOGGER_COMMANDS.includes('debug'),
    acceleration: commMethods.length > 0 && commMethods.every(isWifiCommMethod),
    flowCard: commMethods.some(isCellularCommMethod),
  };
}
