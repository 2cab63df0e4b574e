import type { Clock } from '../../shared/clock.js';
import type { DeviceRegistrar } from './device-registrar.js';
import type { IngestStore, SampleInsert, WritePlan } from './ingest-store.js';
import { planWrite, type Candidate, type FirmwareChange, type PlanStats } from './ingest-planner.js';
import type { Pending, PreparedDevice } from './ingest.types.js';
import type { IngestMetrics } from './metrics.js';
import type { IngestMinutes } from './ingest-minutes.js';

/**
 * Writes one batch of queued frames in ONE transaction (`IngestStore.commit`): heartbeats update
 * their dataloggers, device entries are resolved (unknown devices registered by the same
 * transaction), samples repeated within the batch count as duplicates, and the planner turns the
 * newly inserted samples into rollups / latest / status / alarms. Throws when the commit fails
 * (nothing written; the queue answers the frames `internal`).
 */
export class IngestBatchWriter {
  constructor(
    /** The write side; replaceable (tests inject storage failures through `IngestService.store`). */
    public store: IngestStore,
    private readonly registrar: Pick<DeviceRegistrar, 'resolve' | 'registered'>,
    private readonly metrics: IngestMetrics,
    private readonly now: Clock,
    /** Per-minute counters of the operator home (one map update per committed batch). */
    private readonly minutes?: Pick<IngestMinutes, 'add'>,
  ) {}

  async write(items: readonly Pending[], bad: ReadonlyMap<number, number>): Promise<void> {
    const now = this.now();
    const seen = new Map<number, WritePlan['dataloggers'][number]>();
    const entries: Array<{ item: Pending; p: PreparedDevice }> = [];
    for (const item of items) {
      const dl = item.dl;
      const s = seen.get(dl.id) ?? { id: dl.id, seenAt: now };
      seen.set(dl.id, s);
      if (item.heartbeat) {
        const hb = item.heartbeat;
        if (hb.fw !== undefined) s.firmware = hb.fw;
        if (hb.signal !== undefined) s.signal = Math.round(hb.signal);
        this.metrics.heartbeats += 1;
        continue;
      }
      for (const p of item.devices) entries.push({ item, p });
    }

    // Devices: cached or found; unknown ones are registered by the write transaction itself.
    const { devices, register } = await this.registrar.resolve(entries.map((e) => ({ dl: e.item.dl, p: e.p })));

    const candidates: Candidate[] = [];
    const inBatch = new Set<string>();
    entries.forEach((e, i) => {
      const dev = devices[i]!;
      const key = `${e.item.dl.id}|${e.p.dev.devcode}|${e.p.dev.devaddr}|${e.p.dev.sn}|${e.item.ts}`;
      if (inBatch.has(key)) {
        e.item.result.duplicates += 1;
        this.metrics.samplesDuplicate += 1;
        return;
      }
      inBatch.add(key);
      candidates.push({
        result: e.item.result,
        dev,
        ts: e.item.ts,
        values: e.p.values,
        status: e.p.dev.status,
        data: e.p.data,
        tz: e.item.dl.tz,
        n: e.p.n,
        fw: e.p.dev.fw,
      });
    });

    const rows: SampleInsert[] = candidates.map((c) => ({ device: c.dev, ts: c.ts, data: c.data }));
    const badFrames = [...bad].map(([dataloggerId, n]) => ({ dataloggerId, n }));
    let stats: PlanStats | undefined;
    let firmware: FirmwareChange[] = [];
    const committed = await this.store.commit(register, rows, (inserted) => {
      const r = planWrite(candidates, inserted, [...seen.values()], badFrames, now);
      stats = r.stats;
      firmware = r.firmware;
      return r.plan;
    });
    // Committed: counts and caches follow.
    if (stats) {
      this.metrics.samplesStored += stats.stored;
      this.metrics.samplesDuplicate += stats.duplicates;
      this.metrics.datapointsStored += stats.points;
    }
    // The device rows now hold these versions (or a newer sample's): later frames repeating them write nothing.
    for (const f of firmware) f.dev.firmware = f.fw;
    this.metrics.deviceFirmwareUpdates += committed.firmwareUpdated;
    this.registrar.registered(register);
    this.metrics.devicesRegistered += register.length;
    let accepted = 0;
    for (const item of items) if (item.result.ok) accepted += 1;
    this.metrics.framesAccepted += accepted;
    this.minutes?.add(now, accepted, stats?.points ?? 0);
  }
}
