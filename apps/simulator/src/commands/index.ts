import type { DataloggerCommandKind } from '@sunwatch/protocol';
import { DATALOGGER_HANDLERS } from './datalogger.js';
import { DEVICE_HANDLERS } from './device.js';
import type { CommandHandler } from './types.js';
import { UPGRADE_HANDLERS } from './upgrade.js';

export type { CommandContext, CommandHandler, CommandHandlers, CommandOutcome } from './types.js';

/** Every command kind's handler, merged once (`collect_interval` stays in the runtime). */
const HANDLERS: Readonly<Partial<Record<DataloggerCommandKind, CommandHandler>>> = {
  ...DATALOGGER_HANDLERS,
  ...DEVICE_HANDLERS,
  ...UPGRADE_HANDLERS,
};

/** The handler of a command kind, undefined for a kind the simulator does not answer. */
export function commandHandler(kind: string): CommandHandler | undefined {
  return Object.hasOwn(HANDLERS, kind) ? HANDLERS[kind as DataloggerCommandKind] : undefined;
}
export { upgradeFlags, upgradeHave, verifyImage } from './upgrade.js';
