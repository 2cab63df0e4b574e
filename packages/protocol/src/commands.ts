/**
 * Commands the platform sends a datalogger on `sw/dl/<PN>/cmd` (QoS 1, JSON) and the ack it
 * answers on `sw/dl/<PN>/ack` (issue 10; docs/contracts.md "Datalogger commands"). Real
 * dataloggers and the simulator speak the same shapes. One command, one ack with the same `id`.
 *
 * | cmd              | params                                                        | ack `result`                  |
 * |------------------|---------------------------------------------------------------|-------------------------------|
 * | collect_interval | `{ collect_interval?: s, heartbeat_interval?: s }`            | `{ collect_interval, heartbeat_interval }` |
 * | reboot           | `{}`; acks, drops its connection, comes back after `delay_s` | `{ delay_s }`                 |
 * | reset            | `{}`; forgets its devices and registers again                 | `{}`                          |
 * | unbind           | `{}`                                                          | `{}`                          |
 * | debug            | `{ addr: number, step: number, hex: "AA BB CC" }`             | `{ hex: "…" }` (the answer)   |
 * | ctrl             | `{ devcode, devaddr, sn, id, start, hex }`: register write    | `{}`                          |
 * | read             | `{ devcode, devaddr, sn, id, start, words }`: register read   | `{ hex }`                     |
 * | passthrough      | `{ devcode, devaddr, sn, hex }`: raw bytes to the device      | `{ hex }`                     |
 * | sync             | `{ devcode, devaddr, sn, from: ms, to: ms }`: resend stored samples of that range | `{ frames }` |
 *
 * | upgrade_begin    | `UpgradeBeginParams`: announces an image (issue 13)           | `{ have }`: bytes already held for `key` (resume offset) |
 * | upgrade_chunk    | `{ key, offset, data }` (base64); in order, from `have`        | `{ have }`                    |
 * | upgrade_end      | `{ key }`: verify SHA-256 + Ed25519 signature, then flash (code 6 when it does not verify) | `{}` |
 * | upgrade_cancel   | `{ key }`: forgets the transfer                               | `{}`                          |
 *
 * The outcome of an upgrade (after `upgrade_end`) comes later, unsolicited, on the ack topic with
 * `id: null` and `upg: UpgradeReport` (docs/firmware/engine.md).
 *
 * `hex` is upper-case bytes separated by single spaces ("AA BB CC"); register words in `ctrl` /
 * `read` are 4 hex digits each, big-endian, no spaces (as in ingestion frames).
 */
export const DATALOGGER_COMMANDS = [
  'collect_interval',
  'reboot',
  'reset',
  'unbind',
  'debug',
  'ctrl',
  'read',
  'passthrough',
  'sync',
  'upgrade_begin',
  'upgrade_chunk',
  'upgrade_end',
  'upgrade_cancel',
] as const;
export type DataloggerCommandKind = (typeof DATALOGGER_COMMANDS)[number];

export interface DataloggerCommand {
  /** Unique per command; the ack carries it back. */
  id: string;
  cmd: DataloggerCommandKind;
  /** Epoch ms when the platform sent it. */
  ts: number;
  params: Record<string, unknown>;
}

export interface CommandAck {
  pn: string;
  id: string | null;
  ok: boolean;
  /**
   * When `ok` is false: the device-control error of spec §8 the datalogger reports — 1 failed,
   * 6 format error, 8 rejected, 9 not supported.
   */
  code?: number;
  /** Free text for logs (never shown to users as is). */
  error?: string;
  result?: Record<string, unknown>;
  ts: number;
}

/** How long the platform waits for an ack before answering err 2 (response timeout). */
export const COMMAND_ACK_TIMEOUT_MS = 10_000;

/** "aa bb  cc" / "AABBCC" → "AA BB CC"; undefined when it is not whole bytes of hex. */
export function normalizeHexBytes(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || compact.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(compact)) return undefined;
  return compact.toUpperCase().match(/.{2}/g)!.join(' ');
}

/** Kinds of the operation history (server `operation_log.kind`, shown translated on the web). */
export const OPERATION_KINDS = [
  'ctrl',
  'command',
  'debug',
  'reboot',
  'reset',
  'unbind',
  'delete',
  'edit',
  'bind',
  'sync',
  'collect_interval',
  'upgrade',
] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/** `upgrade_begin` params (issue 13; docs/firmware/engine.md). */
export interface UpgradeBeginParams {
  key: string;
  /** 0 the datalogger itself, 1 a device behind it (`devcode`, `devaddr`, `sn`). */
  target: number;
  devcode?: number;
  devaddr?: number;
  sn?: string;
  /** The firmware's public code and version. */
  firmware: string;
  version: string;
  size: number;
  /** Lower-case hex SHA-256 of the whole image. */
  sha256: string;
  /** Base64 Ed25519 signature over the 32 raw bytes of the SHA-256, and the signing key's fingerprint. */
  signature: string;
  fingerprint: string;
  /** Bytes per `upgrade_chunk`. */
  chunk: number;
  /** FIRMWARE_TYPES and baud rate (device upgrades). */
  type: number;
  baud?: number | null;
}

/**
 * What a datalogger reports of an upgrade after `upgrade_end`, unsolicited on `sw/dl/<PN>/ack`
 * as `{ pn, id: null, upg: UpgradeReport, ts }`: progress while it flashes, then the outcome
 * (FIRMWARE_UPGRADE_STATUS: 0 running, 1 abnormal exit, 2 failed, 3 success).
 */
export interface UpgradeReport {
  key: string;
  status: number;
  /** 0..1000. */
  progress: number;
  /** The version it now runs (on success). */
  version?: string;
  error?: string;
}
