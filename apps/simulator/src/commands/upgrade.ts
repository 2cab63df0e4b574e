import { createHash } from 'node:crypto';
import { FIRMWARE_UPGRADE_STATUS, UPGRADE_PROGRESS_MAX, type UpgradeReport } from '@sunwatch/protocol';
import { demoFirmwareSigningKey, keyFingerprint, verifyFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import type { LiveDatalogger } from '../runtime.js';
import type { CommandContext, CommandHandlers, CommandOutcome } from './types.js';

/**
 * The datalogger side of a firmware upgrade (issue 13; docs/firmware/engine.md): it receives an
 * announced image in chunks (kept per task key, so a reconnect resumes from `have`), verifies its
 * SHA-256 and Ed25519 signature against the keys it trusts, "flashes" it while reporting progress,
 * reboots and from then on reports the new version (heartbeat `fw`; a device upgrade changes the
 * device's version).
 */

/** One image being received. */
interface Transfer {
  key: string;
  target: number;
  devaddr?: number;
  devcode?: number;
  firmware: string;
  version: string;
  size: number;
  sha256: string;
  signature: string;
  fingerprint: string;
  parts: Buffer[];
  have: number;
}

/** Test switches of one datalogger (set by tests through `upgradeFlags(logger)`). */
export interface UpgradeFlags {
  /** The next upgrade fails while flashing (reported status 2). */
  failNext: boolean;
  /** After this many chunks of the next transfer, the datalogger drops its link for `offlineForMs`. */
  offlineAfterChunks?: number;
  offlineForMs: number;
  /** The next `upgrade_begin` is refused (code 1, "flash busy"); the flag clears itself. */
  refuseBeginNext?: boolean;
  /** The next `upgrade_begin` is answered only after this many ms (a datalogger too slow to answer); clears itself. */
  delayBeginMs?: number;
}

interface UpgradeState {
  transfers: Map<string, Transfer>;
  flashing: string | null;
  chunksSeen: number;
  flags: UpgradeFlags;
}

const states = new WeakMap<LiveDatalogger, UpgradeState>();

function stateOf(logger: LiveDatalogger): UpgradeState {
  let s = states.get(logger);
  if (!s) {
    s = { transfers: new Map(), flashing: null, chunksSeen: 0, flags: { failNext: false, offlineForMs: 1500 } };
    states.set(logger, s);
  }
  return s;
}

/** The test switches of a datalogger (mutable). */
export function upgradeFlags(logger: LiveDatalogger): UpgradeFlags {
  return stateOf(logger).flags;
}

/** Bytes held for a task key (0 when none): what a resumed transfer starts from. */
export function upgradeHave(logger: LiveDatalogger, key: string): number {
  return stateOf(logger).transfers.get(key)?.have ?? 0;
}

/** The keys a datalogger trusts: its spec's, else the demo manufacturer's. */
export function trustedKeys(logger: LiveDatalogger): string[] {
  return logger.spec.trustedFirmwareKeys ?? [demoFirmwareSigningKey().publicKey];
}

/** Milliseconds of each of the flashing steps (10 steps); a reboot after success. */
export const FLASH_STEP_MS = 60;
export const UPGRADE_REBOOT_S = 1;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : NaN);

async function report(logger: LiveDatalogger, upg: UpgradeReport): Promise<void> {
  await logger.publisher.ack({ pn: logger.spec.pn, id: null, ok: true, upg, ts: Date.now() }).catch(() => undefined);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Flashes a verified image: progress in steps, then success (and a reboot) or the forced failure. */
async function flash(logger: LiveDatalogger, t: Transfer): Promise<void> {
  const s = stateOf(logger);
  s.flashing = t.key;
  try {
    for (let step = 1; step <= 9; step++) {
      await sleep(FLASH_STEP_MS);
      if (s.flashing !== t.key) return; // cancelled
      await report(logger, { key: t.key, status: FIRMWARE_UPGRADE_STATUS.running, progress: step * 100 });
      if (s.flags.failNext && step === 5) {
        s.flags.failNext = false;
        s.transfers.delete(t.key);
        await report(logger, {
          key: t.key,
          status: FIRMWARE_UPGRADE_STATUS.failed,
          progress: step * 100,
          error: 'flash write failed',
        });
        return;
      }
    }
    s.transfers.delete(t.key);
    if (t.target === 1) {
      const dev = logger.spec.devices.find((d) => d.devaddr === t.devaddr && d.devcode === t.devcode);
      if (dev) dev.firmware = t.version;
    } else {
      logger.spec.firmware = t.version;
    }
    await report(logger, {
      key: t.key,
      status: FIRMWARE_UPGRADE_STATUS.success,
      progress: UPGRADE_PROGRESS_MAX,
      version: t.version,
    });
    if (t.target === 0) {
      // Boots into the new image: the link drops and comes back; the next heartbeat carries `fw`.
      await logger.goOffline();
      const timer = setTimeout(() => {
        logger.booted();
        logger.goOnline();
        void logger.tick();
      }, UPGRADE_REBOOT_S * 1000);
      timer.unref?.();
    }
  } finally {
    if (s.flashing === t.key) s.flashing = null;
  }
}

/** Whether an image verifies: size, SHA-256, and a signature by a trusted key of that fingerprint. */
export function verifyImage(
  image: Buffer,
  t: Pick<Transfer, 'size' | 'sha256' | 'signature' | 'fingerprint'>,
  trusted: readonly string[],
): string | undefined {
  if (image.length !== t.size) return `size ${image.length} != ${t.size}`;
  const sha = createHash('sha256').update(image).digest('hex');
  if (sha !== t.sha256.toLowerCase()) return 'sha256 mismatch';
  const key = trusted.find((k) => keyFingerprint(k) === t.fingerprint);
  if (!key) return 'signing key not trusted';
  if (!verifyFirmwareDigest(key, sha, t.signature)) return 'bad signature';
  return undefined;
}

/** `upgrade_begin`: announces an image; answers the bytes already held for that key (`have`). */
function begin({ logger, params }: CommandContext): CommandOutcome {
  const s = stateOf(logger);
  const key = str(params.key);
  const size = int(params.size);
  const target = int(params.target);
  if (!key || !Number.isFinite(size) || size <= 0 || (target !== 0 && target !== 1))
    return { ok: false, code: 6, error: 'key, size and target are required' };
  if (!/^[0-9a-f]{64}$/i.test(str(params.sha256)) || !str(params.signature) || !str(params.fingerprint))
    return { ok: false, code: 6, error: 'sha256, signature and fingerprint are required' };
  if (s.flashing && s.flashing !== key) return { ok: false, code: 8, error: 'already upgrading' };
  if (target === 1) {
    const dev = logger.spec.devices.find(
      (d) => d.devaddr === int(params.devaddr) && d.devcode === int(params.devcode),
    );
    if (!dev) return { ok: false, code: 1, error: 'no such device' };
  }
  // Another key's partial image is dropped: one transfer at a time.
  for (const k of s.transfers.keys()) if (k !== key) s.transfers.delete(k);
  let t = s.transfers.get(key);
  if (!t || t.size !== size || t.sha256 !== str(params.sha256).toLowerCase()) {
    t = {
      key,
      target,
      devaddr: int(params.devaddr),
      devcode: int(params.devcode),
      firmware: str(params.firmware),
      version: str(params.version),
      size,
      sha256: str(params.sha256).toLowerCase(),
      signature: str(params.signature),
      fingerprint: str(params.fingerprint),
      parts: [],
      have: 0,
    };
    s.transfers.set(key, t);
  }
  s.chunksSeen = 0;
  return { ok: true, result: { have: t.have } };
}

export const UPGRADE_HANDLERS: CommandHandlers = {
  upgrade_begin: async (ctx): Promise<CommandOutcome> => {
    const f = stateOf(ctx.logger).flags;
    if (f.refuseBeginNext) {
      f.refuseBeginNext = false;
      return { ok: false, code: 1, error: 'flash busy' };
    }
    if (f.delayBeginMs !== undefined) {
      const ms = f.delayBeginMs;
      f.delayBeginMs = undefined;
      await sleep(ms);
    }
    return begin(ctx);
  },

  upgrade_chunk: ({ logger, params }): CommandOutcome => {
    const s = stateOf(logger);
    const t = s.transfers.get(str(params.key));
    if (!t) return { ok: false, code: 1, error: 'no such transfer' };
    const offset = int(params.offset);
    const data = Buffer.from(str(params.data), 'base64');
    if (offset !== t.have) return { ok: false, code: 6, error: `expected offset ${t.have}`, result: { have: t.have } };
    if (data.length === 0 || t.have + data.length > t.size) return { ok: false, code: 6, error: 'chunk out of bounds' };
    t.parts.push(data);
    t.have += data.length;
    s.chunksSeen += 1;
    const f = s.flags;
    const drop = f.offlineAfterChunks !== undefined && s.chunksSeen >= f.offlineAfterChunks;
    if (drop) f.offlineAfterChunks = undefined;
    return {
      ok: true,
      result: { have: t.have },
      after: drop
        ? async () => {
            await logger.goOffline();
            const timer = setTimeout(() => {
              logger.goOnline();
              void logger.tick();
            }, f.offlineForMs);
            timer.unref?.();
          }
        : undefined,
    };
  },

  upgrade_end: ({ logger, params }): CommandOutcome => {
    const s = stateOf(logger);
    const t = s.transfers.get(str(params.key));
    if (!t) return { ok: false, code: 1, error: 'no such transfer' };
    const image = Buffer.concat(t.parts);
    const why = verifyImage(image, t, trustedKeys(logger));
    if (why) {
      s.transfers.delete(t.key);
      return { ok: false, code: 6, error: `image refused: ${why}` };
    }
    return { ok: true, result: {}, after: () => void flash(logger, t) };
  },

  upgrade_cancel: ({ logger, params }): CommandOutcome => {
    const s = stateOf(logger);
    const key = str(params.key);
    s.transfers.delete(key);
    if (s.flashing === key) s.flashing = null;
    return { ok: true, result: {} };
  },
};
