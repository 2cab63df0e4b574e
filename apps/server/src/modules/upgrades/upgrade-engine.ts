import { createHash, randomBytes } from 'node:crypto';
import {
  ApiError,
  FIRMWARE_UPGRADE_STATUS,
  encodeUpgradeReason,
  UPGRADE_PROGRESS_MAX,
  UPGRADE_REQUEST_RESULT,
  type CommandAck,
  type UpgradeBeginParams,
  type UpgradeReport,
} from '@sunwatch/protocol';
import { keyFingerprint, verifyFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db.js';
import type { BlobStore } from '../../shared/blob-store.js';
import type { DataloggerCommands } from '../operations/command.service.js';
import type { OperationLog } from '../operations/operation-log.service.js';
import type { TelemetryService } from '../telemetry/telemetry.service.js';
import type { StartUpgradeRequest, StartUpgradeResult, UpgradeEngine } from './engine-port.js';
import { currentDb } from '../../db/transaction.js';
import { ImageCache } from './image-cache.js';

/**
 * The upgrade engine (issue 13; docs/firmware/engine.md). Tasks live in `upgrade_tasks`; one
 * instance drives a task at a time (lease `lease_owner`/`lease_until`, renewed per chunk). A task
 * whose datalogger is offline (or drops mid-transfer) waits in phase 'waiting'; the sweep picks it
 * up (claiming the lease) once the datalogger is online again and resumes from the datalogger's
 * `have`. No database transaction is held across an MQTT wait: every write is one short statement.
 *
 * Progress 0..1000: the transfer covers 0..500, the datalogger's flashing report p (0..1000)
 * maps to 500 + p / 2, success is 1000.
 */
export interface UpgradeEngineOptions {
  /** Bytes per `upgrade_chunk` (config `UPGRADE_CHUNK_BYTES`, default 4096). */
  chunkBytes: number;
  /** Lease of a driven task, renewed with every chunk. */
  leaseMs: number;
  /** How often the sweep looks for waiting / orphaned tasks. */
  sweepMs: number;
  /** A flashing datalogger that reports nothing this long: abnormal exit (status 1). */
  flashTimeoutMs: number;
  /** Ack timeout of one upgrade command. */
  ackTimeoutMs?: number;
  /**
   * Transfers one instance drives at once (`UPGRADE_MAX_TRANSFERS`, 200): the sweep claims only
   * the free slots; a start at capacity is recorded queued and begins when a slot frees.
   */
  maxTransfers: number;
  /** Bytes of verified images kept in memory, shared by the transfers (`UPGRADE_IMAGE_CACHE_BYTES`, 64 MiB). */
  imageCacheBytes: number;
  /**
   * How long a single start (not deferred, datalogger online) waits for the datalogger's answer
   * to `upgrade_begin` before it answers ret 1 "failed to start" (`UPGRADE_BEGIN_WAIT_MS`, 5 s).
   */
  beginWaitMs: number;
}

export const DEFAULT_UPGRADE_OPTIONS: UpgradeEngineOptions = {
  chunkBytes: 4096,
  leaseMs: 20_000,
  sweepMs: 2_000,
  flashTimeoutMs: 120_000,
  maxTransfers: 200,
  imageCacheBytes: 64 * 1024 * 1024,
  beginWaitMs: 5000,
};

/** What became of `upgrade_begin` for a start that waits for it. */
type BeginOutcome = 'begun' | 'refused' | 'offline' | 'noAnswer' | 'gone';

export interface UpgradeEngineDeps {
  db: Db;
  blobs: BlobStore;
  commands: Pick<DataloggerCommands, 'send'>;
  telemetry: Pick<TelemetryService, 'onAck' | 'isConnected'>;
  operations: Pick<OperationLog, 'record'>;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  options?: Partial<UpgradeEngineOptions>;
  /** This instance's lease owner name (default: pid + random); tests name their instances. */
  instance?: string;
}

type TaskRow = {
  id: number;
  key: string;
  pn: string;
  target: number;
  devcode: number | null;
  devaddr: number | null;
  sn: string | null;
  firmware_id: number;
  fw_type: number;
  baud_rate: number | null;
  status: number;
  phase: string;
  sent_bytes: number;
  size: number;
  from_version: string;
  to_version: string;
  account_id: number | null;
  usr: string;
  strategy_id: number | null;
  batch_id: number | null;
};

/** The firmware as it may be distributed (verified). */
export interface DistributableFirmware {
  id: number;
  code: string;
  vendorId: number;
  version: string;
  type: number;
  baudRate: number | null;
  size: number;
  sha256: string;
  signature: string;
  fingerprint: string;
  blobKey: string;
}

export class UpgradeEngineService implements UpgradeEngine {
  /**
   * The open transaction of this async context, else the root database: a batch records its tasks
   * in the action's transaction, and on SQLite (one connection) a query on the root inside it
   * would wait for the transaction forever.
   */
  private get db(): Db {
    return currentDb(this.deps.db);
  }

  readonly instance: string;
  readonly options: UpgradeEngineOptions;
  private timer: NodeJS.Timeout | undefined;
  private readonly driving = new Map<string, Promise<void>>();
  /** Transfer slots taken (driving, or reserved by a start / a claim about to drive). */
  private slots = 0;
  private sweeping: Promise<void> | undefined;
  /** A slot freed while the sweep ran: sweep once more right after. */
  private sweepAgain = false;
  private stopped = false;
  /** `abandon()` (tests): this instance "crashed": it writes nothing more. */
  private abandoned = false;
  private readonly unsubscribe: () => void;
  private readonly images: ImageCache;
  /** (public key, SHA-256, signature) triples already verified: the Ed25519 check runs once per image. */
  private readonly verified = new Set<string>();

  constructor(private readonly deps: UpgradeEngineDeps) {
    this.options = { ...DEFAULT_UPGRADE_OPTIONS, ...deps.options };
    this.instance = deps.instance ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
    this.images = new ImageCache(this.options.imageCacheBytes);
    this.unsubscribe = deps.telemetry.onAck((pn, payload) => this.onAck(pn, payload));
  }

  /** Transfers this instance drives now (at most `maxTransfers`). */
  get inFlight(): number {
    return this.driving.size;
  }

  /** Image loads (blob read + SHA-256) so far, and the bytes the image cache holds. */
  get imageStats(): { loads: number; cachedBytes: number; cached: number } {
    return { loads: this.images.loads, cachedBytes: this.images.bytes, cached: this.images.size };
  }

  /** Starts the sweep (waiting tasks, expired leases, silent flashing). */
  startSweep(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.runSweep(), this.options.sweepMs);
    this.timer.unref?.();
  }

  private runSweep(): void {
    if (this.sweeping) {
      this.sweepAgain = true;
      return;
    }
    this.sweepAgain = false;
    this.sweeping = this.sweep()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'upgrade sweep failed'))
      .finally(() => {
        this.sweeping = undefined;
        if (this.sweepAgain && this.timer && !this.stopped) this.runSweep();
      });
  }

  /**
   * Test seam: this instance "crashes". It stops sweeping and listening, and its transfers stop
   * at their next step without parking or releasing their lease (no write at all): another
   * instance takes them over once the lease expires.
   */
  abandon(): void {
    this.abandoned = true;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe();
  }

  /** Stops the sweep and waits for the transfers this instance drives (they pause: lease released). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.unsubscribe();
    await this.sweeping;
    await Promise.allSettled([...this.driving.values()]);
  }

  /** Waits for the transfers in progress on this instance (tests). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.driving.values()]);
  }

  // ------------------------------------------------------------------------------------------
  // Firmware checks
  // ------------------------------------------------------------------------------------------

  /**
   * The firmware if it may be sent: not deleted, its image in the store, signed by a non-revoked
   * key of its manufacturer, and the signature verifies. 352 otherwise (never why).
   */
  async distributable(firmwareId: number): Promise<DistributableFirmware> {
    const fw = await this.db
      .selectFrom('firmwares')
      .selectAll()
      .where('id', '=', firmwareId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!fw || !fw.signature || fw.key_id === null) throw new ApiError(352);
    const key = await this.db
      .selectFrom('firmware_signing_keys')
      .selectAll()
      .where('id', '=', fw.key_id)
      .where('vendor_id', '=', fw.vendor_id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!key) throw new ApiError(352);
    const triple = `${key.public_key}|${fw.sha256.toLowerCase()}|${fw.signature}`;
    if (!this.verified.has(triple)) {
      if (!verifyFirmwareDigest(key.public_key, fw.sha256, fw.signature)) throw new ApiError(352);
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.add(triple);
    }
    return {
      id: Number(fw.id),
      code: fw.code,
      vendorId: Number(fw.vendor_id),
      version: fw.version,
      type: Number(fw.type),
      baudRate: fw.baud_rate === null ? null : Number(fw.baud_rate),
      size: Number(fw.size),
      sha256: fw.sha256,
      signature: fw.signature,
      fingerprint: keyFingerprint(key.public_key),
      blobKey: fw.blob_key,
    };
  }

  /**
   * The image bytes, checked against the recorded size and SHA-256 (352 when missing or altered).
   * Read and hashed once per (firmware, SHA-256) while it stays in the image cache; every transfer
   * of it shares that buffer (read-only).
   */
  private async image(fw: DistributableFirmware): Promise<Buffer> {
    return this.images.get(ImageCache.key(fw.id, fw.sha256), fw.size, async () => {
      const bytes = await this.deps.blobs.read(fw.blobKey);
      if (!bytes || bytes.length !== fw.size) throw new ApiError(352);
      if (createHash('sha256').update(bytes).digest('hex') !== fw.sha256.toLowerCase()) throw new ApiError(352);
      return bytes;
    });
  }

  /** Takes a transfer slot if one is free (synchronously: concurrent starts cannot both take the last). */
  private reserve(): boolean {
    if (this.slots >= this.options.maxTransfers) return false;
    this.slots += 1;
    return true;
  }

  private release(): void {
    this.slots = Math.max(0, this.slots - 1);
  }

  // ------------------------------------------------------------------------------------------
  // Port
  // ------------------------------------------------------------------------------------------

  /** Whether the platform can reach the datalogger now. */
  private async online(pn: string): Promise<boolean> {
    const dl = await this.db.selectFrom('dataloggers').select('status').where('pn', '=', pn).executeTakeFirst();
    return !!dl && Number(dl.status) === 0 && this.deps.telemetry.isConnected(pn) !== false;
  }

  /** The running (not ended) task of a datalogger, if any. */
  async activeTask(pn: string): Promise<{ key: string; progress: number; status: number } | undefined> {
    const row = await this.db
      .selectFrom('upgrade_tasks')
      .select(['key', 'progress', 'status'])
      .where('pn', '=', pn)
      .where('ended_at', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? { key: row.key, progress: Number(row.progress), status: Number(row.status) } : undefined;
  }

  /**
   * `opts.deferred`: only record the task (phase 'transfer' without a lease when online, else
   * 'waiting'); the sweep drives it after the caller's transaction committed (batches run in one).
   *
   * Not deferred, datalogger online and a transfer slot free: the task is driven here at once and,
   * unless `req.awaitBegin` is false, the answer waits (at most `beginWaitMs`) for the datalogger's
   * answer to `upgrade_begin`: refused or unanswered, the task ends (failed, reason
   * `refusedByDatalogger` / `beginNoAnswer`) and the answer is ret 1 "failed to start" (ret 2 when
   * the datalogger turned out offline). At capacity (`maxTransfers`) the task is recorded queued
   * (no lease) and answered 0: the sweep starts it when a slot frees.
   */
  async start(req: StartUpgradeRequest, opts: { deferred?: boolean } = {}): Promise<StartUpgradeResult> {
    const fw = await this.distributable(req.firmwareId);
    await this.image(fw);
    const t = req.target;
    const dl = await this.db
      .selectFrom('dataloggers')
      .select(['pn', 'firmware', 'status'])
      .where('pn', '=', t.pn)
      .executeTakeFirst();
    if (!dl) throw new ApiError(257);
    let fromVersion = dl.firmware;
    if (t.target === 1) {
      const dev = await this.db
        .selectFrom('devices')
        .select('firmware')
        .where('pn', '=', t.pn)
        .where('devcode', '=', t.devcode)
        .where('devaddr', '=', t.devaddr)
        .where('sn', '=', t.sn)
        .executeTakeFirst();
      if (!dev) throw new ApiError(258);
      fromVersion = dev.firmware;
    }
    if (await this.activeTask(t.pn)) return { ret: UPGRADE_REQUEST_RESULT.alreadyUpgrading };
    const online = await this.online(t.pn);
    if (!online && !req.queueIfOffline) return { ret: UPGRADE_REQUEST_RESULT.offline };
    // A slot is taken before the insert, synchronously after the last await of the checks.
    const drive = online && !opts.deferred && !this.stopped && this.reserve();
    const now = this.deps.now();
    const key = randomBytes(12).toString('hex');
    const inserted = await this.db
      .insertInto('upgrade_tasks')
      .values({
        key,
        pn: t.pn,
        target: t.target,
        devcode: t.target === 1 ? t.devcode : null,
        devaddr: t.target === 1 ? t.devaddr : null,
        sn: t.target === 1 ? t.sn : null,
        firmware_id: fw.id,
        fw_type: req.fwType ?? fw.type,
        baud_rate: req.baudRate ?? fw.baudRate,
        status: FIRMWARE_UPGRADE_STATUS.running,
        phase: online ? 'transfer' : 'waiting',
        progress: 0,
        sent_bytes: 0,
        size: fw.size,
        from_version: fromVersion,
        to_version: fw.version,
        error: '',
        attempts: 0,
        batch_id: req.batchId ?? null,
        strategy_id: req.strategyId ?? null,
        account_id: req.by.accountId,
        usr: req.by.usr,
        created_at: now,
        updated_at: now,
        ended_at: null,
        lease_owner: drive ? this.instance : '',
        lease_until: drive ? now + this.options.leaseMs : 0,
      })
      // one running task per datalogger (migration 0023): a start racing another one loses here
      .onConflict((oc) => oc.column('pn').where('ended_at', 'is', null).doNothing())
      .returning('key')
      .executeTakeFirst()
      .catch((e: unknown) => {
        if (drive) this.release();
        throw e;
      });
    if (!inserted) {
      if (drive) this.release();
      return { ret: UPGRADE_REQUEST_RESULT.alreadyUpgrading };
    }
    if (!drive) return { ret: UPGRADE_REQUEST_RESULT.accepted, key };
    if (req.awaitBegin === false) {
      this.launch(key);
      return { ret: UPGRADE_REQUEST_RESULT.accepted, key };
    }
    return this.launchAndAwaitBegin(key);
  }

  /** Drives the task and answers once `upgrade_begin` was answered (or not, within `beginWaitMs`). */
  private async launchAndAwaitBegin(key: string): Promise<StartUpgradeResult> {
    let settle: (o: BeginOutcome | 'timeout') => void = () => undefined;
    const outcome = new Promise<BeginOutcome | 'timeout'>((resolve) => (settle = resolve));
    const timer = setTimeout(() => settle('timeout'), this.options.beginWaitMs);
    timer.unref?.();
    this.launch(key, (o) => settle(o));
    const o = await outcome;
    clearTimeout(timer);
    if (o === 'begun') return { ret: UPGRADE_REQUEST_RESULT.accepted, key };
    if (o === 'timeout') {
      // Still no answer: the task ends here; the transfer stops at its next step (the task ended).
      const task = await this.task(key);
      if (task) await this.finish(task, FIRMWARE_UPGRADE_STATUS.failed, encodeUpgradeReason('beginNoAnswer'));
      return { ret: UPGRADE_REQUEST_RESULT.failedToStart };
    }
    if (o === 'offline') return { ret: UPGRADE_REQUEST_RESULT.offline };
    return { ret: UPGRADE_REQUEST_RESULT.failedToStart };
  }

  async cancel(key: string, by: { accountId: number | null; usr: string }): Promise<boolean> {
    const now = this.deps.now();
    const task = await this.task(key);
    if (!task) return false;
    const res = await this.db
      .updateTable('upgrade_tasks')
      .set({ status: FIRMWARE_UPGRADE_STATUS.cancelled, phase: 'done', ended_at: now, updated_at: now, lease_until: 0 })
      .where('key', '=', key)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await this.recordOutcome(task, FIRMWARE_UPGRADE_STATUS.cancelled, encodeUpgradeReason('cancelled', by.usr), by);
    // Tell the datalogger (best effort: offline, it forgets the partial image when a new one begins).
    if (await this.online(task.pn)) {
      await this.deps.commands
        .send(task.pn, 'upgrade_cancel', { key }, { usr: by.usr, timeoutMs: this.options.ackTimeoutMs })
        .catch(() => undefined);
    }
    return true;
  }

  // ------------------------------------------------------------------------------------------
  // Driving a transfer
  // ------------------------------------------------------------------------------------------

  private async task(key: string): Promise<TaskRow | undefined> {
    const r = await this.db
      .selectFrom('upgrade_tasks')
      .select([
        'id',
        'key',
        'pn',
        'target',
        'devcode',
        'devaddr',
        'sn',
        'firmware_id',
        'fw_type',
        'baud_rate',
        'status',
        'phase',
        'sent_bytes',
        'size',
        'from_version',
        'to_version',
        'account_id',
        'usr',
        'strategy_id',
        'batch_id',
      ])
      .where('key', '=', key)
      .executeTakeFirst();
    if (!r) return undefined;
    const n = (v: unknown) => (v === null ? null : Number(v));
    return {
      ...r,
      id: Number(r.id),
      target: Number(r.target),
      devcode: n(r.devcode),
      devaddr: n(r.devaddr),
      firmware_id: Number(r.firmware_id),
      fw_type: Number(r.fw_type),
      baud_rate: n(r.baud_rate),
      status: Number(r.status),
      sent_bytes: Number(r.sent_bytes),
      size: Number(r.size),
      account_id: n(r.account_id),
      strategy_id: n(r.strategy_id),
      batch_id: n(r.batch_id),
    };
  }

  /**
   * Drives a task in a slot already taken (`reserve`); the slot is freed when the transfer ends
   * (handed to the datalogger, parked or failed), and the sweep then looks for queued tasks.
   */
  private launch(key: string, gate?: (o: BeginOutcome) => void): void {
    if (this.driving.has(key) || this.stopped) {
      this.release();
      gate?.('gone');
      return;
    }
    const p = this.drive(key, gate)
      .catch((err: unknown) => {
        gate?.('noAnswer');
        this.deps.log.warn({ err, key }, 'upgrade transfer failed');
      })
      .finally(() => {
        this.driving.delete(key);
        this.release();
        if (this.timer && !this.stopped) this.runSweep();
      });
    this.driving.set(key, p);
  }

  /**
   * Renews the lease and records progress; false when the task is no longer ours or ended (a
   * cancel, or another instance took it over after this one's lease expired).
   */
  async recordProgress(
    key: string,
    set: { sent_bytes?: number; progress?: number; phase?: string },
  ): Promise<boolean> {
    const now = this.deps.now();
    const res = await this.db
      .updateTable('upgrade_tasks')
      .set({ ...set, updated_at: now, lease_until: now + this.options.leaseMs })
      .where('key', '=', key)
      .where('ended_at', 'is', null)
      .where('lease_owner', '=', this.instance)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Back to 'waiting' (the datalogger went away): the sweep resumes it when it is back. */
  private async park(key: string, why: string): Promise<void> {
    await this.db
      .updateTable('upgrade_tasks')
      .set({ phase: 'waiting', lease_owner: '', lease_until: 0, updated_at: this.deps.now(), error: why.slice(0, 200) })
      .where('key', '=', key)
      .where('ended_at', 'is', null)
      .where('lease_owner', '=', this.instance)
      .execute();
  }

  private async finish(task: TaskRow, status: number, error: string, progress?: number): Promise<void> {
    const now = this.deps.now();
    const res = await this.db
      .updateTable('upgrade_tasks')
      .set({
        status,
        phase: 'done',
        ended_at: now,
        updated_at: now,
        lease_until: 0,
        error: error.slice(0, 200),
        ...(progress !== undefined ? { progress } : {}),
      })
      .where('key', '=', task.key)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1)
      // The stored reason code (`reason:<code>[|<detail>]`): the history translates it for its reader.
      await this.recordOutcome(task, status, error, { accountId: task.account_id, usr: task.usr });
  }

  /** The operation history: who upgraded what, from → to, the outcome (0 success, else the status). */
  private async recordOutcome(
    task: TaskRow,
    status: number,
    detail: string,
    by: { accountId: number | null; usr: string },
  ): Promise<void> {
    await this.deps.operations
      .record({
        accountId: by.accountId,
        usr: by.usr,
        action: task.target === 1 ? 'firmwareUpgradeDevice' : 'firmwareUpgradeCollector',
        pn: task.pn,
        ...(task.target === 1 && task.devcode !== null && task.devaddr !== null
          ? { device: { devcode: task.devcode, devaddr: task.devaddr, sn: task.sn ?? '' } }
          : {}),
        kind: 'upgrade',
        target: task.key,
        before: { firmware: task.from_version },
        after: { firmware: task.to_version, status },
        result: status === FIRMWARE_UPGRADE_STATUS.success ? 0 : status,
        detail,
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'upgrade: operation log failed'));
  }

  private async send(
    task: TaskRow,
    cmd: 'upgrade_begin' | 'upgrade_chunk' | 'upgrade_end',
    params: object,
  ): Promise<CommandAck> {
    return this.deps.commands.send(task.pn, cmd, params as Record<string, unknown>, {
      usr: task.usr,
      timeoutMs: this.options.ackTimeoutMs,
    });
  }

  /**
   * One transfer: begin → the datalogger's `have` → chunks → end. `gate` (a start waiting for the
   * datalogger's answer) hears what became of `upgrade_begin`; with a gate, a begin that is not
   * answered ends the task (`beginNoAnswer`) instead of parking it.
   */
  private async drive(key: string, gate?: (o: BeginOutcome) => void): Promise<void> {
    const task = await this.task(key);
    if (!task || task.status !== FIRMWARE_UPGRADE_STATUS.running || task.phase === 'flash') {
      gate?.('gone');
      return;
    }
    let fw: DistributableFirmware;
    let image: Buffer;
    try {
      fw = await this.distributable(task.firmware_id);
      image = await this.image(fw);
    } catch {
      // Deleted, revoked or altered since it started: nothing more is sent.
      if (!this.abandoned)
        await this.finish(task, FIRMWARE_UPGRADE_STATUS.failed, encodeUpgradeReason('notDistributable'));
      gate?.('refused');
      return;
    }
    const chunk = Math.max(256, this.options.chunkBytes);
    let begun = false;
    try {
      const begin: UpgradeBeginParams = {
        key,
        target: task.target,
        ...(task.target === 1 ? { devcode: task.devcode!, devaddr: task.devaddr!, sn: task.sn ?? '' } : {}),
        firmware: fw.code,
        version: fw.version,
        size: image.length,
        sha256: fw.sha256.toLowerCase(),
        signature: fw.signature,
        fingerprint: fw.fingerprint,
        chunk,
        type: task.fw_type,
        baud: task.baud_rate,
      };
      const ack = await this.send(task, 'upgrade_begin', begin);
      if (this.abandoned) return;
      if (!ack.ok) {
        await this.finish(
          task,
          FIRMWARE_UPGRADE_STATUS.failed,
          encodeUpgradeReason('refusedByDatalogger', ack.error ?? ack.code),
        );
        gate?.('refused');
        return;
      }
      let have = Math.max(0, Math.min(image.length, Number(ack.result?.have ?? 0) || 0));
      // Ended meanwhile (cancelled, or a start that stopped waiting for this answer): stop.
      if (!(await this.recordProgress(key, { phase: 'transfer', sent_bytes: have }))) {
        gate?.('gone');
        return;
      }
      begun = true;
      await this.db
        .updateTable('upgrade_tasks')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('key', '=', key)
        .execute();
      gate?.('begun');
      while (have < image.length) {
        if (this.abandoned) return;
        if (this.stopped) {
          // This instance shuts down: another (or this one, restarted) resumes from `have`.
          await this.park(key, encodeUpgradeReason('instanceStopped'));
          return;
        }
        const data = image.subarray(have, Math.min(image.length, have + chunk));
        const a = await this.send(task, 'upgrade_chunk', { key, offset: have, data: data.toString('base64') });
        if (this.abandoned) return;
        if (!a.ok) {
          const at = Number(a.result?.have);
          if (a.code === 6 && Number.isInteger(at) && at >= 0 && at <= image.length) {
            have = at; // out of step: continue from where the datalogger is
            continue;
          }
          await this.finish(task, FIRMWARE_UPGRADE_STATUS.failed, encodeUpgradeReason('chunkRefused', a.error ?? a.code));
          return;
        }
        have += data.length;
        const progress = Math.floor((have / image.length) * (UPGRADE_PROGRESS_MAX / 2));
        // Cancelled (or taken over) meanwhile: stop sending.
        if (!(await this.recordProgress(key, { sent_bytes: have, progress }))) return;
      }
      if (!(await this.recordProgress(key, { phase: 'flash' }))) return;
      const end = await this.send(task, 'upgrade_end', { key });
      if (this.abandoned) return;
      if (!end.ok) {
        await this.finish(task, FIRMWARE_UPGRADE_STATUS.failed, encodeUpgradeReason('imageRefused', end.error));
        return;
      }
    } catch (e) {
      if (this.abandoned) return;
      // Offline (263) or no ack (2): wait for it to come back, then resume from its `have`.
      if (e instanceof ApiError && (e.code === 263 || e.code === 2)) {
        if (gate && !begun) {
          // A start waiting for the answer: not begun means not started (ret 1, or 2 when offline).
          await this.finish(
            task,
            FIRMWARE_UPGRADE_STATUS.failed,
            encodeUpgradeReason('beginNoAnswer', e.code === 263 ? 'offline' : ''),
          );
          gate(e.code === 263 ? 'offline' : 'noAnswer');
          return;
        }
        await this.park(key, encodeUpgradeReason(e.code === 263 ? 'offline' : 'noAnswer'));
        return;
      }
      throw e;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Reports and the sweep
  // ------------------------------------------------------------------------------------------

  private onAck(pn: string, payload: Buffer): void {
    let body: { upg?: Partial<UpgradeReport> };
    try {
      body = JSON.parse(payload.toString('utf8')) as { upg?: Partial<UpgradeReport> };
    } catch {
      return;
    }
    const upg = body?.upg;
    if (!upg || typeof upg.key !== 'string' || typeof upg.status !== 'number') return;
    void this.onReport(pn, upg as UpgradeReport).catch((err: unknown) =>
      this.deps.log.warn({ err }, 'upgrade: report not stored'),
    );
  }

  /** A datalogger's report while flashing (progress) or its outcome. Only its own task counts. */
  async onReport(pn: string, upg: UpgradeReport): Promise<void> {
    const task = await this.task(upg.key);
    if (!task || task.pn !== pn || task.status !== FIRMWARE_UPGRADE_STATUS.running) return;
    const now = this.deps.now();
    const p = Math.max(0, Math.min(UPGRADE_PROGRESS_MAX, Math.floor(Number(upg.progress) || 0)));
    if (upg.status === FIRMWARE_UPGRADE_STATUS.running) {
      await this.db
        .updateTable('upgrade_tasks')
        .set({ phase: 'flash', progress: UPGRADE_PROGRESS_MAX / 2 + Math.floor(p / 2), updated_at: now })
        .where('key', '=', task.key)
        .where('ended_at', 'is', null)
        .execute();
      return;
    }
    if (upg.status === FIRMWARE_UPGRADE_STATUS.success) {
      if (task.target === 1 && task.devcode !== null && task.devaddr !== null) {
        // The device's version as its datalogger reports it after flashing.
        await this.db
          .updateTable('devices')
          .set({
            firmware: typeof upg.version === 'string' && upg.version ? upg.version.slice(0, 64) : task.to_version,
          })
          .where('pn', '=', pn)
          .where('devcode', '=', task.devcode)
          .where('devaddr', '=', task.devaddr)
          .where('sn', '=', task.sn ?? '')
          .execute();
      }
      // The version first: whoever sees the task ended sees the new version.
      await this.finish(task, FIRMWARE_UPGRADE_STATUS.success, '', UPGRADE_PROGRESS_MAX);
      return;
    }
    const status =
      upg.status === FIRMWARE_UPGRADE_STATUS.exception
        ? FIRMWARE_UPGRADE_STATUS.exception
        : FIRMWARE_UPGRADE_STATUS.failed;
    await this.finish(task, status, encodeUpgradeReason('flashFailed', typeof upg.error === 'string' ? upg.error : ''));
  }

  /** One pass: silent flashing → abnormal exit; waiting / orphaned tasks of online dataloggers → driven here. */
  async sweep(): Promise<void> {
    const now = this.deps.now();
    const silent = await this.db
      .selectFrom('upgrade_tasks')
      .select('key')
      .where('ended_at', 'is', null)
      .where('phase', '=', 'flash')
      .where('updated_at', '<', now - this.options.flashTimeoutMs)
      .limit(100)
      .execute();
    for (const s of silent) {
      const t = await this.task(s.key);
      if (t) await this.finish(t, FIRMWARE_UPGRADE_STATUS.exception, encodeUpgradeReason('noFlashReport'));
    }
    // Only as many as there are free transfer slots; the rest stay queued for a later pass.
    const room = this.options.maxTransfers - this.slots;
    if (room <= 0 || this.stopped) return;
    const due = await this.db
      .selectFrom('upgrade_tasks as t')
      .innerJoin('dataloggers as d', 'd.pn', 't.pn')
      .select(['t.key', 't.pn'])
      .where('t.ended_at', 'is', null)
      .where('t.phase', 'in', ['waiting', 'transfer'])
      .where('t.lease_until', '<', now)
      .where('d.status', '=', 0)
      .orderBy('t.id')
      // a few more than the room: some may be disconnected from the broker, or claimed by another instance
      .limit(Math.min(1000, room + 50))
      .execute();
    for (const d of due) {
      if (this.stopped) return;
      if (this.driving.has(d.key) || this.deps.telemetry.isConnected(d.pn) === false) continue;
      if (!this.reserve()) return;
      const claim = await this.db
        .updateTable('upgrade_tasks')
        .set({
          lease_owner: this.instance,
          lease_until: now + this.options.leaseMs,
          phase: 'transfer',
          updated_at: now,
        })
        .where('key', '=', d.key)
        .where('ended_at', 'is', null)
        .where('lease_until', '<', now)
        .executeTakeFirst()
        .catch((e: unknown) => {
          this.release();
          throw e;
        });
      if (Number(claim.numUpdatedRows) === 1) this.launch(d.key);
      else this.release();
    }
  }
}
