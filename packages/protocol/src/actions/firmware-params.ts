/** Values of the firmware library actions (actions/firmware.ts), importable without the catalogue. */

/** Where an upload comes from: 0 the firmware manager (8 MB), 1 upgrade management (1 MB). */
export const FIRMWARE_SOURCES = [0, 1] as const;
export type FirmwareSource = (typeof FIRMWARE_SOURCES)[number];

/** The longest firmware name, version, description and note (characters). */
export const FIRMWARE_TEXT_MAX = { name: 64, version: 32, desc: 500, note: 500, i18n: 4000 } as const;

