import type { EnergyCounterName } from '@sunwatch/protocol';
import type { Clock } from '../../shared/clock.js';
import { localDay } from '../../shared/local-time.js';
import { ZERO_PERIOD, type EnergyRepository, type PeriodEnergy } from './energy.repository.js';

/** A device row's timezone columns: its plant's, else its datalogger's. */
export interface DeviceTz {
  id: number;
  p_tz: number | null;
  dl_tz: number;
}

/** Groups items by a key (timezone) for per-timezone energy queries. */
function groupBy<T>(items: readonly T[], key: (t: T) => number): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

/** Period figures of devices, each in its own timezone ("today" is the device's local day). */
export class EnergyService {
  constructor(
    private readonly repo: Pick<EnergyRepository, 'periodByDevice' | 'dayByDevice'>,
    private readonly now: Clock,
  ) {}

  /** Today/month/year/total of one energy kind (default generated) per device. */
  async periodByDevice(
    rows: readonly DeviceTz[],
    kind: EnergyCounterName = 'generated',
  ): Promise<Map<number, PeriodEnergy>> {
    const out = new Map<number, PeriodEnergy>();
    const now = this.now();
    for (const [tz, list] of groupBy(rows, (r) => r.p_tz ?? r.dl_tz)) {
      const m = await this.repo.periodByDevice(
        kind,
        list.map((r) => r.id),
        now,
        tz,
      );
      for (const [id, e] of m) out.set(id, e);
    }
    return out;
  }

  /**
   * Today's energy of one kind (default generated) per device (one indexed lookup per device,
   * `dayEnergyByDevice`) — cheap for fleet-wide figures; month/year/total stay 0.
   */
  async todayByDevice(
    devices: readonly DeviceTz[],
    kind: EnergyCounterName = 'generated',
  ): Promise<Map<number, PeriodEnergy>> {
    const out = new Map<number, PeriodEnergy>();
    const now = this.now();
    const byDay = new Map<number, number[]>();
    for (const d of devices) {
      const day = localDay(now, d.p_tz ?? d.dl_tz);
      const list = byDay.get(day);
      if (list) list.push(d.id);
      else byDay.set(day, [d.id]);
    }
    for (const [day, ids] of byDay) {
      const e = await this.repo.dayByDevice(kind, ids, day);
      for (const id of ids) out.set(id, { ...ZERO_PERIOD, today: e.get(id) ?? 0 });
    }
    return out;
  }
}
