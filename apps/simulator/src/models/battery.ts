/** A battery pack and its limits. */
export interface BatteryParams {
  /** Usable nominal capacity, kWh. */
  capacityKWh: number;
  maxChargeW: number;
  maxDischargeW: number;
  /** State of charge limits, %. */
  minSoc: number;
  maxSoc: number;
  /** Round-trip efficiency, 0..1 (split evenly between charging and discharging). */
  efficiency: number;
}

export interface BatteryStep {
  /** New state of charge, %. */
  soc: number;
  /** Actual AC-side power, W: + discharge / − charge (Sunwatch convention). */
  powerW: number;
  /** AC energy into the battery during the step, kWh (≥ 0). */
  chargedKWh: number;
  /** AC energy out of the battery during the step, kWh (≥ 0). */
  dischargedKWh: number;
}

/**
 * One step of a battery asked for `requestW` (+ discharge / − charge) for `dtS` seconds.
 * The answer is limited by the power limits and by the energy left between min and max SOC;
 * charging stores `P·dt·√η`, discharging draws `P·dt/√η` from the cells.
 */
export function stepBattery(soc: number, p: BatteryParams, requestW: number, dtS: number): BatteryStep {
  const eta = Math.sqrt(Math.min(1, Math.max(0.5, p.efficiency)));
  const hours = dtS / 3600;
  const capWh = p.capacityKWh * 1000;
  if (hours <= 0 || capWh <= 0) return { soc, powerW: 0, chargedKWh: 0, dischargedKWh: 0 };
  if (requestW < 0) {
    const roomWh = Math.max(0, ((p.maxSoc - soc) / 100) * capWh);
    const w = Math.min(-requestW, p.maxChargeW, roomWh / eta / hours);
    const newSoc = Math.min(p.maxSoc, Math.max(soc, soc + ((w * hours * eta) / capWh) * 100));
    return { soc: newSoc, powerW: w === 0 ? 0 : -w, chargedKWh: (w * hours) / 1000, dischargedKWh: 0 };
  }
  const availWh = Math.max(0, ((soc - p.minSoc) / 100) * capWh);
  const w = Math.min(requestW, p.maxDischargeW, (availWh * eta) / hours);
  const newSoc = Math.max(p.minSoc, Math.min(soc, soc - ((w * hours) / eta / capWh) * 100));
  return { soc: newSoc, powerW: w, chargedKWh: 0, dischargedKWh: (w * hours) / 1000 };
}

export interface BalanceInput {
  /** PV power available, W. */
  pvW: number;
  loadW: number;
  dtS: number;
  soc?: number;
  battery?: BatteryParams;
  /** May surplus go to the grid? Off-grid inverters curtail PV instead. */
  exportAllowed: boolean;
  /** Is the grid there to import from (mains present)? */
  gridAvailable?: boolean;
  /**
   * Output source priority of the hybrid inverter (issue 10, settings.ts): `sbu` (default) as
   * described below; `solar`: a deficit comes from the grid, the battery only covers it without
   * grid; `utility`: PV charges the battery first, the grid carries what PV leaves of the load,
   * the battery never discharges while the grid is there.
   */
  priority?: 'utility' | 'solar' | 'sbu';
  /** Extra charging from the grid (charger source "solar and mains"), W; 0 = none. */
  gridChargeW?: number;
}

export interface BalanceResult {
  /** PV power used (available minus curtailment), W. */
  pvW: number;
  /** Load served, W (less than asked only when neither battery nor grid can cover it). */
  loadW: number;
  /** + discharge / − charge, W. */
  batteryW: number;
  /** + import / − export, W. */
  gridW: number;
  soc: number;
  chargedKWh: number;
  dischargedKWh: number;
}

/**
 * Power balance of a plant for one step. With the default `sbu` priority, surplus PV charges the
 * battery, then goes to the grid (or is curtailed); a deficit is covered by the battery, then by
 * grid import. `solar` and `utility` priorities and grid charging change that (BalanceInput). On
 * the AC side it always holds that pv + import + discharge = load + export + charge.
 */
export function balance(input: BalanceInput): BalanceResult {
  const { pvW, loadW, dtS, battery } = input;
  const priority = input.priority ?? 'sbu';
  const gridUp = input.gridAvailable !== false;
  let soc = input.soc ?? 0;
  let batteryW = 0;
  let charged = 0;
  let discharged = 0;
  const run = (requestW: number, limits?: Partial<BatteryParams>) => {
    if (!battery || requestW === 0) return;
    const step = stepBattery(soc, { ...battery, ...limits }, requestW, dtS);
    soc = step.soc;
    batteryW += step.powerW;
    charged += step.chargedKWh;
    discharged += step.dischargedKWh;
  };
  let rest: number; // > 0 PV surplus left, < 0 load deficit left
  if (priority === 'utility' && gridUp) {
    run(-pvW); // PV charges the battery first
    rest = pvW + batteryW - loadW;
  } else {
    const surplus = pvW - loadW;
    if (surplus > 0 || priority === 'sbu' || !gridUp) run(-surplus);
    rest = surplus + batteryW;
  }
  if (battery && gridUp && (input.gridChargeW ?? 0) > 0 && batteryW <= 0) {
    // Charger source "solar and mains": the grid tops the battery up within its charge limit.
    const room = Math.max(0, battery.maxChargeW + batteryW);
    const before = batteryW;
    run(-Math.min(input.gridChargeW!, room), { maxChargeW: room });
    rest += batteryW - before; // more charging (batteryW more negative) = more deficit, imported below
  }
  let pvUsed = pvW;
  let loadServed = loadW;
  let gridW = 0;
  if (rest > 0) {
    if (input.exportAllowed) gridW = -rest;
    else pvUsed = pvW - rest;
  } else if (rest < 0) {
    if (gridUp) gridW = -rest;
    else loadServed = loadW + rest; // brown-out: load shed
  }
  return { pvW: pvUsed, loadW: loadServed, batteryW, gridW, soc, chargedKWh: charged, dischargedKWh: discharged };
}
