import type { CommandHandlers } from './types.js';

/** Commands to the datalogger itself: reboot, reset, unbind, debug, sync (issue 10). */
export const DATALOGGER_HANDLERS: CommandHandlers = {};
