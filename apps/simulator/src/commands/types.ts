import type { DataloggerCommandKind } from '@sunwatch/protocol';
import type { Command } from '../protocol/publisher.js';
import type { LiveDatalogger } from '../runtime.js';

/** What a command handler gets: the running datalogger, the command and its params. */
export interface CommandContext {
  logger: LiveDatalogger;
  cmd: Command;
  params: Record<string, unknown>;
}

/** The ack's outcome (`CommandAck` without pn/id/ts, which the runtime adds). */
export interface CommandOutcome {
  ok: boolean;
  /** Device-control error of spec §8 when not ok: 1 failed, 6 format, 8 rejected, 9 unsupported. */
  code?: number;
  error?: string;
  result?: Record<string, unknown>;
  /** Runs after the ack went out (a reboot drops the link only once it has acknowledged). */
  after?: () => Promise<void> | void;
}

export type CommandHandler = (ctx: CommandContext) => Promise<CommandOutcome> | CommandOutcome;
export type CommandHandlers = Partial<Record<DataloggerCommandKind, CommandHandler>>;
