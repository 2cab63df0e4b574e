import { defineAction, result } from './define.js';
import { actionParams, wireInt } from './common.js';

/** Counts by status code: `byStatus[s]` = how many have status s (0 online … 6 protocol error). */
export interface StatusCounts {
  total: number;
  byStatus: number[];
}

/** Income in one currency. */
export interface IncomeFigures {
  currency: string;
  today: string;
  total: string;
}

export interface FleetOverviewDat {
  plant: StatusCounts;
  collector: StatusCounts;
  device: StatusCounts;
  /** kWh, each plant's "today" in its own timezone. */
  energyToday: string;
  energyTotal: string;
  /** kW, sum of the latest values. */
  currentPower: string;
  /**
   * Sunwatch: kW consumed, summed over the plants whose meters / hybrid inverters tell their
   * consumption (plant balance); "--" when none can.
   */
  consumptionPower: string;
  /** kW, sum of the plants' rated power. */
  nominalPower: string;
  /** Income of the most common currency (`currency`); `incomes` holds every currency. */
  currency: string;
  incomeToday: string;
  incomeTotal: string;
  incomes: IncomeFigures[];
  /** Alarms raised per day over the last 7 days, oldest first ("YYYY-MM-DD" in `timezone`). */
  alarmsPerDay: Array<{ date: string; count: number }>;
  /** Alarms not yet ended. */
  activeAlarms: number;
}

export const webQueryFleetOverview = defineAction({
  name: 'webQueryFleetOverview',
  summary:
    'Overview of everything the caller may see: plants/dataloggers/devices by status, energy, power, income, alarms per day.',
  params: actionParams({
    /** Timezone (s east of UTC) of the alarm-per-day buckets; default UTC. */
    timezone: wireInt()
      .min(-12 * 3600)
      .max(14 * 3600)
      .default(0),
  }),
  access: { auth: 'signed', permission: 'overview' },
  mutates: false,
  result: result<FleetOverviewDat>(),
});
