import { z } from 'zod';

/**
 * Sunwatch's ingestion format: what a datalogger (or the simulator) posts to the server.
 * One frame = one sample time of one datalogger (`pn`), with a sample per attached device,
 * either as raw register blocks (decoded with the devcode's definition) or as already named
 * values (field id → number, or enum label / numeric string), or both (values win).
 *
 * Register blocks: `start` is the first 16-bit register address; `hex` the words that
 * follow, big-endian, 4 hex digits per word, no spaces ("08FC0137" = 0x08FC, 0x0137).
 * Idempotency: the server keys samples by (device, ts); `seq` is only for diagnostics.
 */

export const HEX_WORDS_RE = /^(?:[0-9a-fA-F]{4})*$/;
/** At most this many words per block (a full Modbus read is 125). */
export const MAX_BLOCK_WORDS = 1024;

export const RegisterBlockSchema = z
  .object({
    start: z.number().int().min(0).max(0xffff),
    hex: z
      .string()
      .max(MAX_BLOCK_WORDS * 4)
      .regex(HEX_WORDS_RE, 'hex must be whole 16-bit words (4 hex digits each), no spaces'),
  })
  .refine((b) => b.start + b.hex.length / 4 <= 0x10000, 'block runs past register 0xFFFF');
export type RegisterBlock = z.infer<typeof RegisterBlockSchema>;

/** Longest device firmware version a frame may carry (the `devices.firmware` column holds 64). */
export const DEVICE_FW_MAX = 64;

export const DEVICE_STATUS_VALUES = [0, 1, 2, 3, 4, 5, 6] as const;

export const IngestDeviceSchema = z.object({
  devcode: z.number().int().min(1).max(0xffff),
  /** RS-485 address. */
  devaddr: z.number().int().min(0).max(255),
  sn: z.string().min(1).max(64),
  /** Status the datalogger reports (wire-protocol.md §5); the server may derive its own. */
  status: z.number().int().min(0).max(6).optional(),
  registers: z.array(RegisterBlockSchema).max(64).optional(),
  values: z.record(z.string().min(1).max(64), z.union([z.number().finite(), z.string().max(64)])).optional(),
  /**
   * The device's firmware version as the datalogger reads it (optional; issue 13). The server keeps
   * it in the device's info when it differs from the stored one and the sample is the device's
   * newest; '' or absent leaves the stored version as it is.
   */
  fw: z.string().max(DEVICE_FW_MAX).optional(),
});
export type IngestDevice = z.infer<typeof IngestDeviceSchema>;

export const IngestFrameSchema = z.object({
  pn: z.string().min(1).max(64),
  /** Epoch milliseconds of the sample. */
  ts: z.number().int().positive(),
  seq: z.number().int().min(0).optional(),
  devices: z.array(IngestDeviceSchema).min(1).max(256),
});
export type IngestFrame = z.infer<typeof IngestFrameSchema>;

export const HeartbeatSchema = z.object({
  pn: z.string().min(1).max(64),
  /** Epoch milliseconds. */
  ts: z.number().int().positive(),
  /** Datalogger firmware version. */
  fw: z.string().max(64).optional(),
  /** Signal strength in percent (0–100). */
  signal: z.number().min(0).max(100).optional(),
  /** Seconds since the datalogger booted. */
  uptime: z.number().int().min(0).optional(),
});
export type Heartbeat = z.infer<typeof HeartbeatSchema>;
