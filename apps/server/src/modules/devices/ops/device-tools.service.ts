import { ApiError, energyCounters, powerOf } from '@sunwatch/protocol';
import type { Caller } from '../../../context.js';
import type { Db } from '../../../db/db.js';
import { currentDb } from '../../../db/transaction.js';
import { localDay } from '../../../shared/local-time.js';
import type { DataloggerCommands } from '../../operations/command.service.js';
import type { OperationLog } from '../../operations/operation-log.service.js';
import { toSample } from '../device-sample.js';
import { deviceTz, type DevicesRepository } from '../devices.repository.js';
import { dayRange } from './day-range.js';
import { ackErr, errCode, type DeviceTarget, type DeviceTargets } from './device-target.js';

/** The helpform form (spec §5): SN and device address entered twice, device code, start and end dates. */
export interface HelpformInput {
  sn: string;
  sn2: string;
  devaddr: number;
  devaddr2: number;
  devcode: number;
  sdate: string;
  edate: string;
}

type DayKind = 'gen' | 'chg' | 'dis' | 'sold' | 'bought' | 'used';
const KINDS: Record<DayKind, 'generated' | 'charged' | 'discharged' | 'sold' | 'bought' | 'used'> = {
  gen: 'generated',
  chg: 'charged',
  dis: 'discharged',
  sold: 'sold',
  bought: 'bought',
  used: 'used',
};

/**
 * The auxiliary functions of `setting/helpform` (spec §5 "Device synchronisation and data tools"):
 * - syncDeviceData: the datalogger resends the device's stored samples of the range (`sync`
 *   command); the server stores those it lacks (the rest count as duplicates);
 * - recalcDeviceData: the device's day rollups of the range are rebuilt from its stored samples
 *   (after a sync filled gaps, or to repair a rollup).
 * Both check the twice-entered SN and address (err 6 when they differ), that the device code is
 * the device's (258 otherwise, like an unknown device), and the range (≤ 31 days, not in the future).
 */
export class DeviceToolsService {
  constructor(
    private readonly deps: {
      db: Db;
      targets: DeviceTargets;
      devices: Pick<DevicesRepository, 'countSamples' | 'samples'>;
      commands: Pick<DataloggerCommands, 'send'>;
      operations: Pick<OperationLog, 'record'>;
      now: () => number;
    },
  ) {}

  private async target(caller: Caller, p: HelpformInput): Promise<DeviceTarget> {
    if (p.sn.trim() !== p.sn2.trim()) throw new ApiError(6, 'sn2');
    if (p.devaddr !== p.devaddr2) throw new ApiError(6, 'devaddr2');
    const t = await this.deps.targets.forWrite(caller, { sn: p.sn.trim(), devaddr: p.devaddr, devcode: p.devcode });
    return t;
  }

  private record(caller: Caller, action: string, t: DeviceTarget, target: string, p: HelpformInput, result: number, detail: string) {
    return this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action,
      pn: t.row.pn,
      device: t.tuple,
      kind: 'sync',
      target,
      after: { sdate: p.sdate, edate: p.edate },
      result,
      detail,
    });
  }

  async sync(caller: Caller, p: HelpformInput): Promise<{ frames: number; samples: number }> {
    const t = await this.target(caller, p);
    const r = dayRange(p.sdate, p.edate, deviceTz(t.row), this.deps.now());
    try {
      const samples = await this.deps.devices.countSamples(t.row.id, r.from, r.to);
      const ack = await this.deps.commands.send(t.row.pn, 'sync', { ...t.tuple, from: r.from, to: r.to - 1 });
      if (!ack.ok) throw new ApiError(ackErr(ack), ack.error);
      const frames = Number(ack.result?.frames ?? 0);
      await this.record(caller, 'syncDeviceData', t, 'samples', p, 0, `frames=${frames} stored=${samples}`);
      return { frames: Number.isFinite(frames) ? frames : 0, samples };
    } catch (e) {
      await this.record(caller, 'syncDeviceData', t, 'samples', p, errCode(e), e instanceof Error ? e.message : String(e));
      throw e;
    }
  }

  /** Rebuilds device_days of the range from the samples (runs in the action's transaction). */
  async recalc(caller: Caller, p: HelpformInput): Promise<{ days: number; samples: number }> {
    const t = await this.target(caller, p);
    const tz = deviceTz(t.row);
    const r = dayRange(p.sdate, p.edate, tz, this.deps.now());
    const samples = await this.deps.devices.samples(t.row.id, r.from, r.to);
    interface Agg {
      samples: number;
      min: Record<DayKind, number | null>;
      max: Record<DayKind, number | null>;
      peak: number | null;
      first: number;
      last: number;
    }
    const byDay = new Map<number, Agg>();
    for (const s of samples) {
      const day = localDay(s.ts, tz);
      let a = byDay.get(day);
      if (!a) {
        const nul = { gen: null, chg: null, dis: null, sold: null, bought: null, used: null };
        a = { samples: 0, min: { ...nul }, max: { ...nul }, peak: null, first: s.ts, last: s.ts };
        byDay.set(day, a);
      }
      a.samples += 1;
      a.first = Math.min(a.first, s.ts);
      a.last = Math.max(a.last, s.ts);
      const sdef = s.def ?? t.def;
      const sample = toSample(sdef, s.data);
      const c = energyCounters(sdef, sample);
      for (const k of Object.keys(KINDS) as DayKind[]) {
        const v = c[KINDS[k]];
        if (v === undefined) continue;
        const lo = a.min[k];
        const hi = a.max[k];
        a.min[k] = lo === null || v < lo ? v : lo;
        a.max[k] = hi === null || v > hi ? v : hi;
      }
      const w = powerOf(sdef, sample, 'pv') ?? powerOf(sdef, sample, 'generator') ?? powerOf(sdef, sample, 'load');
      if (w !== undefined && Number.isFinite(w)) {
        const kw = Math.round(w) / 1000;
        if (a.peak === null || kw > a.peak) a.peak = kw;
      }
    }
    const db = currentDb(this.deps.db);
    const before = await db
      .selectFrom('device_days')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('samples').as('s')])
      .where('device_id', '=', t.row.id)
      .where('day', '>=', r.fromDay)
      .where('day', '<=', r.toDay)
      .executeTakeFirst();
    await db
      .deleteFrom('device_days')
      .where('device_id', '=', t.row.id)
      .where('day', '>=', r.fromDay)
      .where('day', '<=', r.toDay)
      .execute();
    for (const [day, a] of byDay) {
      await db
        .insertInto('device_days')
        .values({
          device_id: t.row.id,
          day,
          samples: a.samples,
          gen_min: a.min.gen,
          gen_max: a.max.gen,
          chg_min: a.min.chg,
          chg_max: a.max.chg,
          dis_min: a.min.dis,
          dis_max: a.max.dis,
          sold_min: a.min.sold,
          sold_max: a.max.sold,
          bought_min: a.min.bought,
          bought_max: a.max.bought,
          used_min: a.min.used,
          used_max: a.max.used,
          peak_power: a.peak,
          first_ts: a.first,
          last_ts: a.last,
        })
        .execute();
    }
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'recalcDeviceData',
      pn: t.row.pn,
      device: t.tuple,
      kind: 'edit',
      target: 'rollups',
      before: { days: Number(before?.n ?? 0), samples: Number(before?.s ?? 0) },
      after: { days: byDay.size, samples: samples.length, sdate: p.sdate, edate: p.edate },
      result: 0,
    });
    return { days: byDay.size, samples: samples.length };
  }
}
