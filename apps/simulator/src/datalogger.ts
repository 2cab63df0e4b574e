import { getDefinition, type Heartbeat, type IngestFrame } from '@sunwatch/protocol';
import { statusOf } from './alarms.js';
import { deviceFirmware, deviceValues, type FieldValues } from './devices.js';
import { deviceEntry } from './frames.js';
import { advancePlant, initialState, type PlantState, type Snapshot } from './plant.js';
import type { DataloggerSpec } from './types.js';
import { applyReadbacks } from './settings.js';

/**
 * One simulated datalogger: its plant's physics and the frames it sends. Pure state machine
 * (no timers, no I/O): `frameAt(ts)` advances the plant to `ts` and returns the frame sampled
 * then. History and live runs share it, so both produce the same frames for the same times.
 */
export class DataloggerSim {
  readonly spec: DataloggerSpec;
  private st: PlantState;
  /** The last snapshot and device values (for tests and logs). */
  last?: { snap: Snapshot; values: Record<string, FieldValues> };

  constructor(spec: DataloggerSpec, state?: PlantState) {
    this.spec = spec;
    this.st = state ? structuredClone(state) : initialState(spec);
  }

  get lastTs(): number | null {
    return this.st.lastTs;
  }

  /** A copy of the state (JSON-serialisable) to resume from later. */
  state(): PlantState {
    return structuredClone(this.st);
  }

  /** A reset datalogger registers again: its frame sequence restarts (the devices keep their counters). */
  restartSequence(): void {
    this.st.seq = 0;
  }

  /** The next sample time on the collect-interval grid after the last one (or at/after `from`). */
  nextSampleTs(from: number): number {
    const step = this.spec.collectInterval * 1000;
    const after = Math.max(from, this.st.lastTs === null ? -Infinity : this.st.lastTs + 1);
    return Math.ceil(after / step) * step;
  }

  frameAt(ts: number): IngestFrame {
    const snap = advancePlant(this.spec, this.st, ts);
    const values: Record<string, FieldValues> = {};
    const devices = this.spec.devices.map((dev) => {
      const ds = this.st.devices[dev.sn]!;
      const v = deviceValues(this.spec, dev, snap, ds);
      applyReadbacks(getDefinition(dev.devcode)!, v, this.st.settings?.[dev.sn]);
      values[dev.sn] = v;
      // Each device reports the firmware it runs now (a device upgrade changes it from the next frame on).
      return { ...deviceEntry(dev, v, statusOf(snap.alarms[dev.sn] ?? null)), fw: deviceFirmware(dev) };
    });
    this.last = { snap, values };
    this.st.seq += 1;
    return { pn: this.spec.pn, ts, seq: this.st.seq, devices };
  }

  /** The settings a `ctrl` command wrote to a device (control id → value), if any. */
  settingsOf(sn: string): Readonly<Record<string, number>> | undefined {
    return this.st.settings?.[sn];
  }

  /** Applies a `ctrl` write: the device behaves and reports accordingly from the next sample on. */
  applySetting(sn: string, controlId: string, value: number): void {
    const all = (this.st.settings ??= {});
    (all[sn] ??= {})[controlId] = value;
  }

  /** Forgets every setting (a datalogger reset). */
  clearSettings(): void {
    delete this.st.settings;
  }

  heartbeat(ts: number, uptimeS: number, signal = 70): Heartbeat {
    return {
      pn: this.spec.pn,
      ts,
      fw: this.spec.firmware ?? 'SWDL-2.4.1',
      signal,
      uptime: Math.max(0, Math.floor(uptimeS)),
    };
  }
}
