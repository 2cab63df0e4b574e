import {
  ApiError,
  ROLE,
  controlItems,
  decodeControlWrite,
  deviceWireOptions,
  encodeControl,
  formatValue,
  getControl,
  normalizeHexBytes,
  parseRegisterWords,
  readControlValue,
  toCtrlFields,
  wordsToRaw,
  type ControlDef,
  type CtrlFieldWire,
  type DeviceDefinition,
} from '@sunwatch/protocol';
import type { Caller } from '../../../context.js';
import type { DataloggerCommands } from '../../operations/command.service.js';
import type { OperationEntry, OperationLog } from '../../operations/operation-log.service.js';
import type { ControlFieldsService } from '../../roles/control-fields.service.js';
import type { DevicesRepository, DeviceKey } from '../devices.repository.js';
import { toSample } from '../device-sample.js';
import type { CtrlPasswordService } from './ctrl-password.service.js';
import { ackErr, errCode, type DeviceTarget, type DeviceTargets } from './device-target.js';

/** How long ctrlDevice waits for the read of the old value (history only; the write goes on without it). */
const OLD_VALUE_TIMEOUT_MS = 3000;

/** A value of a control as users see it: the item key, a datetime, or the scaled number. */
export function controlValueText(def: DeviceDefinition, c: ControlDef, words: number[]): string {
  if (c.type === 'datetime') {
    const [a = 0, b = 0, d = 0] = words;
    const p = (n: number) => String(n).padStart(2, '0');
    return `${2000 + (a >> 8)}-${p(a & 0xff)}-${p(b >> 8)} ${p(b & 0xff)}:${p(d >> 8)}:${p(d & 0xff)}`;
  }
  const decoded = decodeControlWrite(def, c.id, c.register.address, words);
  if (decoded.ok && decoded.key !== undefined) return decoded.key;
  const value = decoded.ok ? decoded.value : wordsToRaw(words, c.register.signed) * c.scale;
  const decimals = Math.max(0, String(c.scale).split('.')[1]?.length ?? 0);
  if (!controlItems(c)) return formatValue({ decimals }, value);
  return String(value);
}

/**
 * Device control (spec §2 "control", §8 device-control errors; wire-protocol.md §6): the control
 * fields of the device's protocol definition the caller may see (issue 9's visibility), their
 * current values read from the device over MQTT, writes sent to the datalogger as register
 * writes, and raw commands. Every write is recorded in the operation history with its outcome.
 */
export class DeviceControlService {
  constructor(
    private readonly deps: {
      targets: DeviceTargets;
      devices: Pick<DevicesRepository, 'latest'>;
      controlFields: Pick<ControlFieldsService, 'controlFieldRights'>;
      commands: Pick<DataloggerCommands, 'send'>;
      operations: Pick<OperationLog, 'record'>;
      pwd: CtrlPasswordService;
    },
  ) {}

  private async domainOf(t: DeviceTarget): Promise<number | null> {
    return this.deps.pwd.domainOfDatalogger(t.dl);
  }

  /** queryDeviceCtrlField: the visible control fields, translated; `write` false for read-only callers. */
  async fields(
    caller: Caller,
    key: DeviceKey,
    locale?: string,
  ): Promise<{ field: Array<CtrlFieldWire & { write: boolean }>; pwd: boolean }> {
    const t = await this.deps.targets.find(caller, key);
    const rights = await this.deps.controlFields.controlFieldRights(caller, t.def.devcode);
    const write = caller.role !== ROLE.VIEWER;
    const wire = toCtrlFields(t.def, deviceWireOptions(locale)).field;
    return {
      field: wire.filter((f) => rights.visible.has(f.id)).map((f) => ({ ...f, write })),
      pwd: await this.deps.pwd.isSet(await this.domainOf(t)),
    };
  }

  private async visibleControl(caller: Caller, t: DeviceTarget, id: string): Promise<ControlDef> {
    const c = getControl(t.def, id);
    if (!c) throw new ApiError(9, id);
    const rights = await this.deps.controlFields.controlFieldRights(caller, t.def.devcode);
    if (!rights.visible.has(id)) throw new ApiError(11, id);
    return c;
  }

  /** The control's value in the last sample (its read-back field), if it has one. */
  private async sampleValue(t: DeviceTarget, id: string): Promise<string | undefined> {
    const latest = (await this.deps.devices.latest([t.row.id])).get(t.row.id);
    if (!latest) return undefined;
    return readControlValue(t.def, id, toSample(t.def, latest.data));
  }

  /** Reads the control's register words from the device (`read` command). */
  private async readDevice(t: DeviceTarget, c: ControlDef, timeoutMs?: number): Promise<string> {
    const ack = await this.deps.commands.send(
      t.row.pn,
      'read',
      { ...t.tuple, id: c.id, start: c.register.address, words: c.register.words },
      timeoutMs === undefined ? {} : { timeoutMs },
    );
    if (!ack.ok) throw new ApiError(ackErr(ack), ack.error);
    const words = parseRegisterWords(String(ack.result?.hex ?? ''));
    if (!words || words.length !== c.register.words) throw new ApiError(1, 'read answer');
    return controlValueText(t.def, c, words);
  }

  /**
   * queryDeviceCtrlValue: read from the device over MQTT. When the datalogger is offline (263) and
   * the control has a read-back field, the last sample's value is answered instead (`src:
   * "sample"`): that field is the very register the device reported with its last frame.
   */
  async value(
    caller: Caller,
    key: DeviceKey & { id: string },
    locale?: string,
  ): Promise<{ id: string; name: string; val: string; src: 'device' | 'sample' }> {
    const t = await this.deps.targets.find(caller, key);
    const c = await this.visibleControl(caller, t, key.id);
    const name = toCtrlFields({ ...t.def, controls: [c] }, deviceWireOptions(locale)).field[0]!.name;
    try {
      return { id: c.id, name, val: await this.readDevice(t, c), src: 'device' };
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 263) throw e;
      const val = await this.sampleValue(t, c.id);
      if (val === undefined) throw e;
      return { id: c.id, name, val, src: 'sample' };
    }
  }

  private record(caller: Caller, action: string, t: DeviceTarget, e: Omit<OperationEntry, 'accountId' | 'usr' | 'action' | 'pn' | 'device'>) {
    return this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action,
      pn: t.row.pn,
      device: t.tuple,
      ...e,
    });
  }

  /** ctrlDevice: validate, check rights and password, send the register write, map the answer. */
  async ctrl(
    caller: Caller,
    p: DeviceKey & { id: string; val: string; pwd?: string | undefined },
  ): Promise<{ dat: string | null; status: -1 | 0 | 1 }> {
    const t = await this.deps.targets.forWrite(caller, p);
    const entry = { kind: 'ctrl' as const, target: p.id, after: p.val };
    let old: string | undefined;
    try {
      const c = await this.visibleControl(caller, t, p.id);
      await this.deps.pwd.check(await this.domainOf(t), p.pwd);
      const enc = encodeControl(t.def, c.id, p.val);
      if (!enc.ok) throw new ApiError(enc.reason === 'unknown-control' ? 9 : 6, enc.message);
      old = await this.sampleValue(t, c.id);
      if (old === undefined) old = await this.readDevice(t, c, OLD_VALUE_TIMEOUT_MS).catch(() => undefined);
      const ack = await this.deps.commands.send(t.row.pn, 'ctrl', {
        ...t.tuple,
        id: c.id,
        start: enc.block.start,
        hex: enc.block.hex,
      });
      if (!ack.ok) throw new ApiError(ackErr(ack), ack.error);
      const dat = normalizeHexBytes(String(ack.result?.hex ?? '')) ?? null;
      await this.record(caller, 'ctrlDevice', t, { ...entry, before: old ?? null, result: 0, ...(dat ? { detail: dat } : {}) });
      return { dat, status: 1 };
    } catch (e) {
      await this.record(caller, 'ctrlDevice', t, {
        ...entry,
        before: old ?? null,
        result: errCode(e),
        detail: e instanceof Error ? e.message : String(e),
      });
      throw e;
    }
  }

  /**
   * sendCmdToDevice: raw bytes through the datalogger to the device. Raw commands can write any
   * register, so they are refused (11) to callers from whom an administrator hid any control
   * field of the devcode, besides viewers.
   */
  async sendCmd(caller: Caller, p: DeviceKey & { cmd: string; pwd?: string | undefined }): Promise<{ dat: string }> {
    const t = await this.deps.targets.forWrite(caller, p);
    const hex = normalizeHexBytes(p.cmd);
    const entry = { kind: 'command' as const, target: '', after: hex ?? p.cmd.slice(0, 200) };
    try {
      if (!hex) throw new ApiError(6, 'cmd');
      const rights = await this.deps.controlFields.controlFieldRights(caller, t.def.devcode);
      if (rights.hidden.size > 0) throw new ApiError(11);
      await this.deps.pwd.check(await this.domainOf(t), p.pwd);
      const ack = await this.deps.commands.send(t.row.pn, 'passthrough', { ...t.tuple, hex });
      if (!ack.ok) throw new ApiError(ackErr(ack), ack.error);
      const dat = normalizeHexBytes(String(ack.result?.hex ?? '')) ?? '';
      await this.record(caller, 'sendCmdToDevice', t, { ...entry, result: 0, detail: dat });
      return { dat };
    } catch (e) {
      await this.record(caller, 'sendCmdToDevice', t, {
        ...entry,
        result: errCode(e),
        detail: e instanceof Error ? e.message : String(e),
      });
      throw e;
    }
  }
}
