import type { DataloggerCommandKind } from '@sunwatch/protocol';
import { DATALOGGER_HANDLERS } from './datalogger.js';
import { DEVICE_HANDLERS } from './device.js';
import type { CommandHandler } from './types.js';

export type { CommandContext, CommandHandler, CommandHandlers, CommandOutcome } from './types.js';

/** The handler of a command kind (`collect_interval` stays in the runtime). */
export function commandHandler(kind: string): CommandHandler | undefined {
  const all = { ...DATALOGGER_HANDLERS, ...DEVICE_HANDLERS };
  return all[kind as DataloggerCommandKind];
}
