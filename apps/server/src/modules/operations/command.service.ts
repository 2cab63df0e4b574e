import { randomBytes } from 'node:crypto';
import {
  ApiError,
  COMMAND_ACK_TIMEOUT_MS,
  type CommandAck,
  type DataloggerCommand,
  type DataloggerCommandKind,
} from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import type { TelemetryService } from '../telemetry/telemetry.service.js';

interface Pending {
  pn: string;
  cmd: DataloggerCommandKind;
  resolve: (ack: CommandAck) => void;
  timer: NodeJS.Timeout;
}

/**
 * Sends a command to a datalogger over MQTT (`sw/dl/<PN>/cmd`) and waits for its ack
 * (`sw/dl/<PN>/ack`, matched by `id`). err 263 when the datalogger is offline (or MQTT is off,
 * or the embedded broker holds no connection of it),
 * err 2 when no ack arrives within the timeout. A negative ack is returned as is (`ok: false`,
 * `code`): the caller maps it to the device-control errors of spec §8.
 *
 * Never call it inside a database transaction (actions that use it are `waits: true`).
 */
/** What happened to a command, for the datalogger log (issue 10, `webQueryCollectorLog`). */
export interface CommandEvent {
  pn: string;
  /** command: published; ack: answered (result 0 ok, else its code); timeout: no ack (2); error: not sent (263). */
  kind: 'command' | 'ack' | 'timeout' | 'error';
  cmd: DataloggerCommandKind;
  result: number;
  usr: string;
  detail: string;
}

export class DataloggerCommands {
  private readonly pending = new Map<string, Pending>();
  private readonly observers = new Set<(e: CommandEvent) => void>();

  /** Listens to every command's fate (the datalogger log); returns the unsubscribe function. */
  observe(listener: (e: CommandEvent) => void): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  private emit(e: CommandEvent): void {
    for (const o of this.observers) {
      try {
        o(e);
      } catch {
        // an observer's failure is its own
      }
    }
  }

  constructor(
    private readonly deps: {
      db: Db;
      telemetry: TelemetryService;
      now: () => number;
      timeoutMs?: number;
    },
  ) {
    deps.telemetry.onAck((pn, payload) => this.onAck(pn, payload));
  }

  /** Whether the platform sees the datalogger online now (status 0). */
  async isOnline(pn: string): Promise<boolean> {
    const row = await this.deps.db.selectFrom('dataloggers').select('status').where('pn', '=', pn).executeTakeFirst();
    if (!row) throw new ApiError(257);
    return Number(row.status) === 0;
  }

  async send(
    pn: string,
    cmd: DataloggerCommandKind,
    params: Record<string, unknown> = {},
    opts: { timeoutMs?: number; usr?: string } = {},
  ): Promise<CommandAck> {
    const usr = opts.usr ?? '';
    const note = (kind: CommandEvent['kind'], result: number, detail = '') =>
      this.emit({ pn, kind, cmd, result, usr, detail });
    if (!(await this.isOnline(pn))) {
      note('error', 263, 'offline');
      throw new ApiError(263);
    }
    // Not connected to the embedded broker (rebooting, cut off, never came): undeliverable now.
    if (this.deps.telemetry.isConnected(pn) === false) {
      note('error', 263, 'not connected');
      throw new ApiError(263);
    }
    const id = randomBytes(8).toString('hex');
    const command: DataloggerCommand = { id, cmd, ts: this.deps.now(), params };
    const timeoutMs = opts.timeoutMs ?? this.deps.timeoutMs ?? COMMAND_ACK_TIMEOUT_MS;
    const answered = new Promise<CommandAck | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(undefined);
      }, timeoutMs);
      timer.unref?.();
      this.pending.set(id, { pn, cmd, resolve, timer });
    });
    try {
      await this.deps.telemetry.publishCommand(pn, JSON.stringify(command));
    } catch (e) {
      const p = this.pending.get(id);
      if (p) clearTimeout(p.timer);
      this.pending.delete(id);
      note('error', 263, 'not published');
      throw e instanceof ApiError ? e : new ApiError(263);
    }
    note('command', 0, JSON.stringify(params).slice(0, 300));
    const ack = await answered;
    if (!ack) {
      note('timeout', 2);
      throw new ApiError(2);
    }
    note('ack', ack.ok ? 0 : (ack.code ?? 1), ack.error ?? '');
    return ack;
  }

  private onAck(pn: string, payload: Buffer): void {
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (!body || typeof body !== 'object') return;
    const ack = body as Partial<CommandAck>;
    const id = typeof ack.id === 'string' ? ack.id : undefined;
    const p = id ? this.pending.get(id) : undefined;
    if (!p || p.pn !== pn) return; // an ack for another datalogger's command is ignored
    clearTimeout(p.timer);
    this.pending.delete(id!);
    p.resolve({
      pn,
      id: id!,
      ok: ack.ok === true,
      ...(typeof ack.code === 'number' ? { code: ack.code } : {}),
      ...(typeof ack.error === 'string' ? { error: ack.error.slice(0, 500) } : {}),
      ...(ack.result && typeof ack.result === 'object' ? { result: ack.result } : {}),
      ts: typeof ack.ts === 'number' ? ack.ts : this.deps.now(),
    });
  }
}
