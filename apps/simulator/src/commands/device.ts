import type { CommandHandlers } from './types.js';

/** Commands to a device behind the datalogger: ctrl, read, passthrough (issue 10). */
export const DEVICE_HANDLERS: CommandHandlers = {};
