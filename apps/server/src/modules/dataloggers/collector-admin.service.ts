import {
  ApiError,
  DEFAULT_LOCALE,
  RESTART_RESULT,
  ROLE,
  RECHARGE_BATCH_MAX,
  cardStatusCode,
  cardStatusName,
  checkRechargeBatch,
  dataloggerLogRangeError,
  deriveCardStatus,
  errorDesc,
  errorMessage,
  isPn,
  isTimezoneOffset,
  normalizeCurrency,
  normalizeHexBytes,
  normalizeLocale,
  type Catalogue,
  type CollectorDetail,
  type CollectorMoveDat,
  type CollectorLogRow,
  type CollectorSheetDat,
  type CollectorSheetResult,
  type CardStatus,
  type CommandAck,
  type DataloggerCommandKind,
  type ErrorCode,
  type GprsCollectorRow,
  type OperationKind,
  type ParsedParamsOf,
  type RechargeCard,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import { callerHasPermission } from '../../access/permissions.js';
import type { Caller } from '../../context.js';
import type { DbHandle } from '../../db/transaction.js';
import { addDays, dayOf, dayStartMs, dayString, fmtTs, localDay } from '../../shared/local-time.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DataloggerCommands } from '../operations/command.service.js';
import type { OperationLog } from '../operations/operation-log.service.js';
import type { CollectorAdminRepository, CollectorRecord, ResetCounts } from './collector-admin.repository.js';
import type { DataloggerEvents } from './datalogger-events.service.js';

/** An alias is at most this long (the catalogue's `alias` limit). */
export const ALIAS_MAX = 128;
/** At most this many rows in one batch sheet (err 13 beyond). */
export const COLLECTOR_SHEET_MAX_ROWS = 1000;
/** Device-control errors of spec §8 a negative acknowledgement may carry; anything else is 1. */
const ACK_CODES: readonly number[] = [1, 6, 8, 9, 11];

/** The error a negative acknowledgement answers (spec §8 device-control errors). */
export function ackError(ack: CommandAck): ErrorCode {
  return (ACK_CODES.includes(ack.code ?? -1) ? ack.code : 1) as ErrorCode;
}

export interface CollectorAdminDeps {
  repo: CollectorAdminRepository;
  dbh: DbHandle;
  access: Pick<AccessService, 'scopeOf' | 'requireAccess'>;
  accounts: {
    findById(
      id: number,
    ): Promise<{ id: number; role: number; path: string; usr: string; can_add_datalogger: number } | undefined>;
  };
  manufacturerOnPath(path: string): Promise<{ id: number; vendor_code: string | null } | undefined>;
  /** Issue 14 PN rules: the manufacturer a new PN belongs to by its prefix, if a rule says so. */
  makerForPn?: (pn: string) => Promise<{ id: number; vendor_code: string | null } | undefined>;
  /** Issue 14 type codes: the type a new PN registers with (387 for a type letter no enabled type code names). */
  stockType?: (pn: string, vendorCode: string | null) => Promise<{ typeCode: string; commMethod: string } | undefined>;
  insertStock(
    pn: string,
    alias: string,
    adminId: number | null,
    vendorId: number | null,
    typeCode: string,
    commMethod?: string,
  ): Promise<number>;
  /** The owner's default plant (else its oldest), and the default plant made for it when it has none. */
  defaultPlantOf?: (ownerId: number) => Promise<number | undefined>;
  createDefaultPlant?: (ownerId: number, dl: CollectorRecord) => Promise<number>;
  commands: Pick<DataloggerCommands, 'send'>;
  operations: Pick<OperationLog, 'record'>;
  audit: Pick<AuditService, 'record'>;
  events: Pick<DataloggerEvents, 'list'>;
  /** Forgets the ingestion caches of a PN (its plant, its devices changed). */
  invalidate(pn: string): void;
  /** Waits until every frame already received is stored (before a reset deletes them). */
  drainIngest(): Promise<void>;
  mqttPort(): number;
  now: () => number;
}

/** The acting account: a sub-administrator acts for the account it administers. */
const actorOf = (caller: Caller) => caller.adminOf ?? caller.accountId;

type EditParams = ParsedParamsOf<Catalogue['editCollectorEs']>;

/**
 * Datalogger management (issue 10): add (single, sheet), edit, reboot, reset, unbind, delete,
 * debug, the datalogger log, the GPRS list and the details. Every write to a datalogger records an
 * operation (`operation_log`), failures included; commands go over MQTT (`DataloggerCommands`).
 */
export class CollectorAdminService {
  constructor(private readonly deps: CollectorAdminDeps) {}

  // ----------------------------------------------------------------------------------------
  // Access
  // ----------------------------------------------------------------------------------------

  /** The datalogger if the caller may see it (257 otherwise, exactly like a missing PN). */
  private async visible(caller: Caller, pn: string): Promise<CollectorRecord> {
    const p = pn.trim();
    if (p === '') throw new ApiError(7, 'pn');
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: [p] });
    const row = await this.deps.repo.byPn(p);
    if (!row) throw new ApiError(257, p);
    return row;
  }

  /**
   * Whether the caller may change the datalogger: owners only their own; distributors,
   * manufacturers and the operator what their scope shows; viewers and group accounts never.
   */
  private mayWrite(caller: Caller, dl: CollectorRecord): boolean {
    if (caller.role === ROLE.OWNER) return dl.owner_id === caller.accountId;
    return caller.role === ROLE.DISTRIBUTOR || caller.role === ROLE.MANUFACTURER || caller.role === ROLE.OPERATOR;
  }

  /** Reset and unbind: administrators of its scope (spec §6: manufacturers their own dataloggers). */
  private mayResetOrUnbind(caller: Caller, _dl: CollectorRecord): boolean {
    return caller.role === ROLE.DISTRIBUTOR || caller.role === ROLE.MANUFACTURER || caller.role === ROLE.OPERATOR;
  }

  private async writable(caller: Caller, pn: string): Promise<CollectorRecord> {
    const dl = await this.visible(caller, pn);
    if (!this.mayWrite(caller, dl)) throw new ApiError(11);
    return dl;
  }

  // ----------------------------------------------------------------------------------------
  // Commands
  // ----------------------------------------------------------------------------------------

  /**
   * Sends a command and records the operation whatever comes of it: offline (263), timeout (2),
   * refused (the mapped ack code) or done (0, recorded by the caller once its writes are made).
   * Returns the positive ack; throws the error otherwise.
   */
  private async command(
    caller: Caller,
    action: string,
    dl: CollectorRecord,
    kind: OperationKind,
    cmd: DataloggerCommandKind,
    params: Record<string, unknown>,
    op: { target?: string; before?: unknown; after?: unknown } = {},
  ): Promise<CommandAck> {
    const base = { accountId: caller.accountId, usr: caller.usr, action, pn: dl.pn, kind, ...op };
    let ack: CommandAck;
    try {
      ack = await this.deps.commands.send(dl.pn, cmd, params, { usr: caller.usr });
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 1;
      await this.deps.operations.record({
        ...base,
        result: code,
        detail: e instanceof ApiError ? (e.detail ?? '') : String(e),
      });
      throw e;
    }
    if (!ack.ok) {
      const code = ackError(ack);
      await this.deps.operations.record({ ...base, result: code, detail: ack.error ?? '' });
      throw new ApiError(code);
    }
    return ack;
  }

  // ----------------------------------------------------------------------------------------
  // Add
  // ----------------------------------------------------------------------------------------

  /**
   * Why an owner cannot bind `dl` (0 when it can): 259 unknown PN (no such datalogger was ever
   * made), 522 already the caller's, 772 another owner's, 273 another manufacturer's.
   */
  private ownerRefusal(
    caller: Caller,
    dl: CollectorRecord | undefined,
    maker: { id: number } | undefined,
  ): ErrorCode | 0 {
    if (!dl) return 259;
    if (dl.owner_id === caller.accountId) return 522;
    if (dl.owner_id != null) return 772;
    if (dl.vendor_id != null && maker && dl.vendor_id !== maker.id) return 273;
    return 0;
  }

  private async ownerContext(caller: Caller, plantid: number) {
    const me = await this.deps.accounts.findById(caller.accountId);
    if (!me) throw new ApiError(10);
    // Spec §6: only the owner adds, and only with the add-datalogger permission.
    if (me.can_add_datalogger !== 1) throw new ApiError(11, 'addCollector');
    const plant = await this.deps.repo.plantOf(caller.accountId, plantid);
    if (!plant) throw new ApiError(260);
    const maker = await this.deps.manufacturerOnPath(caller.path);
    const dealer = await this.deps.repo.dealerAbove(caller.path, caller.accountId);
    return { plant, maker, dealer };
  }

  private async bindToOwner(
    caller: Caller,
    action: string,
    dl: CollectorRecord,
    plantId: number,
    alias: string,
    dealer: number | undefined,
  ): Promise<void> {
    const before = { owner_id: dl.owner_id, admin_id: dl.admin_id, project_id: dl.project_id, alias: dl.alias };
    const after = {
      owner_id: caller.accountId,
      // A datalogger nobody administers (unbound) gets the owner's dealer back.
      admin_id: dl.admin_id ?? dealer ?? null,
      project_id: plantId,
      alias: alias !== '' ? alias : dl.alias,
    };
    await this.deps.repo.update(dl.id, after);
    await this.deps.repo.setDevicesPlant(dl.id, plantId);
    await this.deps.audit.record({ entity: 'datalogger', entityId: dl.pn, before, after });
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action,
      pn: dl.pn,
      kind: 'bind',
      target: 'plant',
      before,
      after,
      result: 0,
    });
    this.deps.invalidate(dl.pn);
  }

  /** addCollectorToPlant: the owner binds a datalogger to one of its plants. */
  async addToPlant(caller: Caller, plantid: number, pnIn: string, alias: string | undefined): Promise<void> {
    const { maker, dealer } = await this.ownerContext(caller, plantid);
    const pn = pnIn.trim();
    if (!isPn(pn)) throw new ApiError(259, 'pn');
    const dl = await this.deps.repo.byPn(pn);
    const why = this.ownerRefusal(caller, dl, maker);
    if (why !== 0) throw new ApiError(why, pn);
    await this.bindToOwner(caller, 'addCollectorToPlant', dl!, plantid, alias?.trim() ?? '', dealer);
  }

  /**
   * addCollectorsBySheet: every row on its own (a result per row). Owners bind to `plantid`;
   * distributors and manufacturers add to their stock (as distAddCollector: a new PN is created
   * with the manufacturer of the caller's tree; a distributor claims an unadministered one).
   */
  async addBySheet(
    caller: Caller,
    plantid: number | undefined,
    items: ReadonlyArray<{ row: number; pn: string; alias: string }>,
    locale: string,
  ): Promise<CollectorSheetDat> {
    if (items.length === 0) throw new ApiError(7, 'file');
    if (items.length > COLLECTOR_SHEET_MAX_ROWS) throw new ApiError(13, 'file');
    const owner = caller.role === ROLE.OWNER;
    let ownerCtx: Awaited<ReturnType<CollectorAdminService['ownerContext']>> | undefined;
    if (owner) {
      if (plantid === undefined) throw new ApiError(7, 'plantid');
      ownerCtx = await this.ownerContext(caller, plantid);
    } else if (caller.role !== ROLE.DISTRIBUTOR && caller.role !== ROLE.MANUFACTURER) {
      throw new ApiError(1025);
    }
    const actorId = actorOf(caller);
    const actor = owner ? undefined : await this.deps.accounts.findById(actorId);
    const maker = owner ? ownerCtx!.maker : await this.deps.manufacturerOnPath(actor?.path ?? caller.path);
    const rows = await this.deps.repo.byPns(items.map((i) => i.pn.trim()).filter(isPn));
    const seen = new Set<string>();
    const lang = normalizeLocale(locale) ?? DEFAULT_LOCALE;
    const result: CollectorSheetResult[] = [];
    for (const item of items) {
      const pn = item.pn.trim();
      const alias = item.alias.trim();
      let err: ErrorCode | 0 = 0;
      if (!isPn(pn)) err = 259;
      else if (seen.has(pn)) err = 520;
      else if (alias.length > ALIAS_MAX) err = 6;
      if (isPn(pn)) seen.add(pn);
      if (err === 0) {
        const dl = rows.get(pn);
        if (owner) {
          err = this.ownerRefusal(caller, dl, maker);
          if (err === 0) await this.bindToOwner(caller, 'addCollectorsBySheet', dl!, plantid!, alias, ownerCtx!.dealer);
        } else {
          err = await this.addToStock(caller, actorId, dl, pn, alias, maker);
        }
      }
      result.push({
        row: item.row,
        pn,
        alias,
        err,
        desc: errorDesc(err),
        msg: err === 0 ? '' : errorMessage(err, lang),
      });
    }
    const ok = result.filter((r) => r.err === 0).length;
    return { total: result.length, ok, failed: result.length - ok, result };
  }

  /** One row of an administrator's batch: into its stock (0), or why not. */
  private async addToStock(
    caller: Caller,
    actorId: number,
    dl: CollectorRecord | undefined,
    pn: string,
    alias: string,
    maker: { id: number; vendor_code: string | null } | undefined,
  ): Promise<ErrorCode | 0> {
    const op = {
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'addCollectorsBySheet',
      pn,
      kind: 'bind' as const,
      target: 'stock',
    };
    if (dl) {
      if (dl.vendor_id != null && dl.vendor_id !== maker?.id) return 273;
      if (dl.owner_id != null) return 772;
      const claimable = caller.role === ROLE.DISTRIBUTOR && dl.admin_id == null && maker !== undefined;
      if (!claimable) return 522;
      const before = { admin_id: null, alias: dl.alias };
      const after = { admin_id: actorId, alias: alias || dl.alias };
      await this.deps.repo.update(dl.id, after);
      await this.deps.audit.record({ entity: 'datalogger', entityId: pn, before, after });
      await this.deps.operations.record({ ...op, before, after, result: 0 });
      return 0;
    }
    // a PN rule gives a new PN to its manufacturer: another manufacturer's tree cannot register it
    const ruled = await this.deps.makerForPn?.(pn);
    if (ruled && ruled.id !== maker?.id) return 273;
    let type: { typeCode: string; commMethod: string } | undefined;
    try {
      type = await this.deps.stockType?.(pn, maker?.vendor_code ?? null);
    } catch (e) {
      if (e instanceof ApiError) return e.code as ErrorCode;
      throw e;
    }
    const adminId = caller.role === ROLE.DISTRIBUTOR ? actorId : null;
    await this.deps.insertStock(
      pn,
      alias,
      adminId,
      maker?.id ?? null,
      type?.typeCode ?? maker?.vendor_code ?? '',
      type?.commMethod ?? '',
    );
    const after = {
      pn,
      alias,
      admin_id: adminId,
      vendor_id: maker?.id ?? null,
      ...(type ? { type_code: type.typeCode, comm_method: type.commMethod } : {}),
    };
    await this.deps.audit.record({ entity: 'datalogger', entityId: pn, before: null, after });
    await this.deps.operations.record({ ...op, before: null, after, result: 0 });
    return 0;
  }

  // ----------------------------------------------------------------------------------------
  // Edit
  // ----------------------------------------------------------------------------------------

  /** editCollectorEs: omitted = unchanged, empty = blank; 271 when nothing changes. */
  async edit(caller: Caller, p: EditParams): Promise<void> {
    const dl = await this.writable(caller, p.pn);
    const patch: Partial<CollectorRecord> = {};
    const str = (v: string | undefined, col: keyof CollectorRecord) => {
      if (v !== undefined) (patch as Record<string, unknown>)[col] = v.trim();
    };
    const num = (
      v: number | '' | undefined,
      col: keyof CollectorRecord,
      opts: { min?: number; max?: number; nullable?: boolean },
    ) => {
      if (v === undefined) return;
      if (v === '') {
        (patch as Record<string, unknown>)[col] = opts.nullable ? null : 0;
        return;
      }
      if ((opts.min !== undefined && v < opts.min) || (opts.max !== undefined && v > opts.max))
        throw new ApiError(6, String(col));
      (patch as Record<string, unknown>)[col] = v;
    };
    str(p.alias, 'alias');
    str(p['address.country'], 'country');
    str(p['address.province'], 'province');
    str(p['address.city'], 'city');
    str(p['address.county'], 'county');
    str(p['address.town'], 'district');
    str(p['address.address'], 'address');
    num(p.lon ?? p['address.lon'], 'lon', { min: -180, max: 180, nullable: true });
    num(p.lat ?? p['address.lat'], 'lat', { min: -90, max: 90, nullable: true });
    str(p.installer, 'installer');
    if (p.installDate !== undefined) {
      patch.install_at = p.installDate.trim() === '' ? null : dayStartMs(dayOf(p.installDate), dl.tz_offset);
    }
    num(p.nominalPower, 'nominal_power', { min: 0 });
    num(p['profit.unitProfit'], 'unit_profit', { min: 0 });
    num(p['profit.buyProfit'], 'price_buy', { min: 0 });
    num(p['profit.sellProfit'], 'price_sell', { min: 0 });
    num(p['profit.useProfit'], 'price_use', { min: 0 });
    num(p['profit.genProfit'], 'price_gen', { min: 0 });
    const currency = p['profit.currency'] ?? p['profit.currencyCountry'];
    if (currency !== undefined) {
      if (currency.trim() === '') patch.currency = '';
      else {
        const c = normalizeCurrency(currency);
        if (!c) throw new ApiError(6, 'profit.currency');
        patch.currency = c;
      }
    }
    if (p.timezone !== undefined) {
      if (!isTimezoneOffset(p.timezone)) throw new ApiError(6, 'timezone');
      patch.tz_offset = p.timezone;
    }
    if (p.storageDays !== undefined) patch.storage_days = p.storageDays;
    if (p.pollStart !== undefined) patch.poll_start = p.pollStart;
    if (p.pollEnd !== undefined) patch.poll_end = p.pollEnd;
    if (p.minAddr !== undefined) patch.min_addr = p.minAddr;
    if (p.maxAddr !== undefined) patch.max_addr = p.maxAddr;
    if (p.transparent !== undefined) patch.transparent = p.transparent ? 1 : 0;
    str(p.protocolSet, 'protocol_set');
    str(p.commAddress, 'comm_address');
    if (p.datFetch !== undefined) patch.collect_interval = p.datFetch;
    if (p.heartbeat !== undefined) patch.heartbeat_interval = p.heartbeat;
    const pollStart = patch.poll_start ?? dl.poll_start;
    const pollEnd = patch.poll_end ?? dl.poll_end;
    const minAddr = patch.min_addr ?? dl.min_addr;
    const maxAddr = patch.max_addr ?? dl.max_addr;
    if (pollEnd !== 0 && pollStart > pollEnd) throw new ApiError(6, 'pollEnd');
    if (minAddr > maxAddr) throw new ApiError(6, 'maxAddr');

    const changed = Object.keys(patch).filter(
      (k) => (patch as Record<string, unknown>)[k] !== (dl as unknown as Record<string, unknown>)[k],
    ) as Array<keyof CollectorRecord>;
    if (changed.length === 0) throw new ApiError(271);
    const before = Object.fromEntries(changed.map((k) => [k, dl[k]]));
    const after = Object.fromEntries(changed.map((k) => [k, patch[k]]));
    const intervals: Record<string, number> = {};
    if (changed.includes('collect_interval')) intervals.collect_interval = patch.collect_interval!;
    if (changed.includes('heartbeat_interval')) intervals.heartbeat_interval = patch.heartbeat_interval!;
    if (Object.keys(intervals).length > 0) {
      // The datalogger itself samples and beats: it must take the new intervals first.
      await this.command(caller, 'editCollectorEs', dl, 'collect_interval', 'collect_interval', intervals, {
        target: Object.keys(intervals).join(','),
        before,
        after,
      });
    }
    await this.deps.dbh.transaction(async () => {
      await this.deps.repo.update(dl.id, Object.fromEntries(changed.map((k) => [k, patch[k]])));
      await this.deps.audit.record({ entity: 'datalogger', entityId: dl.pn, before, after });
    });
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'editCollectorEs',
      pn: dl.pn,
      kind: 'edit',
      target: changed.join(','),
      before,
      after,
      result: 0,
    });
    if (changed.includes('tz_offset')) this.deps.invalidate(dl.pn);
  }

  // ----------------------------------------------------------------------------------------
  // Reboot, reset, unbind, delete
  // ----------------------------------------------------------------------------------------

  /**
   * restartCollector: ret 0 when the datalogger acknowledged (it then drops its connection and
   * comes back), ret 2 when it refused; err 263 offline, err 2 no acknowledgement.
   */
  async restart(caller: Caller, pn: string): Promise<{ ret: number; pn: string; delay: number }> {
    const dl = await this.writable(caller, pn);
    let ack: CommandAck;
    try {
      ack = await this.command(caller, 'restartCollector', dl, 'reboot', 'reboot', {});
    } catch (e) {
      // A refusal by the datalogger is the vendor's ret 2 ("command failed"); offline and timeout stay errors.
      if (e instanceof ApiError && e.code !== 263 && e.code !== 2)
        return { ret: RESTART_RESULT.FAILED, pn: dl.pn, delay: 0 };
      throw e;
    }
    const delay = Number(ack.result?.delay_s ?? 0);
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'restartCollector',
      pn: dl.pn,
      kind: 'reboot',
      result: 0,
      detail: `delay_s=${delay}`,
    });
    return { ret: RESTART_RESULT.ACKNOWLEDGED, pn: dl.pn, delay: Number.isFinite(delay) ? delay : 0 };
  }

  private confirm(text: string): void {
    if (text.trim() !== 'YES') throw new ApiError(6, 'confirm');
  }

  /**
   * resetCollector: the datalogger acknowledges the reset, then its devices and all their data
   * are deleted (nothing of any other datalogger); it registers again with its next frame.
   */
  async reset(caller: Caller, pn: string, confirm: string): Promise<{ pn: string; devices: number; samples: number }> {
    this.confirm(confirm);
    const dl = await this.visible(caller, pn);
    if (!this.mayResetOrUnbind(caller, dl)) throw new ApiError(11);
    await this.command(caller, 'resetCollector', dl, 'reset', 'reset', {});
    // Frames received before the acknowledgement are stored first, so none lands after the delete.
    await this.deps.drainIngest();
    let counts: ResetCounts | undefined;
    try {
      counts = await this.deps.dbh.transaction(async () => {
        const c = await this.deps.repo.deleteAllData(dl.id);
        await this.deps.audit.record({
          entity: 'datalogger',
          entityId: dl.pn,
          before: { data: 'all' },
          after: { reset: c },
        });
        return c;
      });
    } finally {
      this.deps.invalidate(dl.pn);
      await this.deps.operations.record({
        accountId: caller.accountId,
        usr: caller.usr,
        action: 'resetCollector',
        pn: dl.pn,
        kind: 'reset',
        before: counts ? { devices: counts.devices } : undefined,
        after: counts ?? undefined,
        result: counts ? 0 : 1,
      });
    }
    return { pn: dl.pn, devices: counts.devices, samples: counts.samples };
  }

  /**
   * unbindCollector: on the acknowledgement the dealer admin (`admin_id`) and the owner binding
   * (`owner_id`, `project_id`, its devices' plant) are cleared; data, vendor and configuration stay.
   * The owner binds it again with addCollectorToPlant (which gives it the owner's dealer back).
   */
  async unbind(caller: Caller, pn: string, confirm: string): Promise<void> {
    this.confirm(confirm);
    const dl = await this.visible(caller, pn);
    if (!this.mayResetOrUnbind(caller, dl)) throw new ApiError(11);
    const before = { admin_id: dl.admin_id, owner_id: dl.owner_id, project_id: dl.project_id };
    const after = { admin_id: null, owner_id: null, project_id: null };
    await this.command(caller, 'unbindCollector', dl, 'unbind', 'unbind', {}, { before, after });
    await this.deps.dbh.transaction(async () => {
      await this.deps.repo.update(dl.id, after);
      await this.deps.repo.setDevicesPlant(dl.id, null);
      await this.deps.audit.record({ entity: 'datalogger', entityId: dl.pn, before, after });
    });
    this.deps.invalidate(dl.pn);
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'unbindCollector',
      pn: dl.pn,
      kind: 'unbind',
      before,
      after,
      result: 0,
    });
  }

  /**
   * delCollector: removes the caller's management right — an owner its ownership (owner, plant,
   * its follows of the devices), a distributor its administration (`admin_id`). Data stays.
   */
  async remove(caller: Caller, pn: string): Promise<void> {
    const dl = await this.visible(caller, pn);
    const actor = actorOf(caller);
    let before: Record<string, unknown>;
    let after: Record<string, unknown>;
    if (caller.role === ROLE.OWNER && dl.owner_id === caller.accountId) {
      before = { owner_id: dl.owner_id, project_id: dl.project_id };
      after = { owner_id: null, project_id: null };
      await this.deps.repo.update(dl.id, { owner_id: null, project_id: null });
      await this.deps.repo.setDevicesPlant(dl.id, null);
      await this.deps.repo.dropFollows(dl.id, caller.accountId);
    } else if (caller.role === ROLE.DISTRIBUTOR && dl.admin_id === actor) {
      before = { admin_id: dl.admin_id };
      after = { admin_id: null };
      await this.deps.repo.update(dl.id, { admin_id: null });
    } else {
      throw new ApiError(11);
    }
    await this.deps.audit.record({ entity: 'datalogger', entityId: dl.pn, before, after });
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'delCollector',
      pn: dl.pn,
      kind: 'delete',
      before,
      after,
      result: 0,
    });
    this.deps.invalidate(dl.pn);
  }

  // ----------------------------------------------------------------------------------------
  // Operator moves (issue 14)
  // ----------------------------------------------------------------------------------------

  /** The manufacturer above (or equal to) an account, by its path; undefined under the operator alone. */
  private async makerOf(account: { id: number; role: number; path: string } | undefined): Promise<number | undefined> {
    if (!account) return undefined;
    if (account.role === ROLE.MANUFACTURER) return account.id;
    return (await this.deps.manufacturerOnPath(account.path))?.id;
  }

  private async moveResult(dl: CollectorRecord): Promise<CollectorMoveDat> {
    const now = (await this.deps.repo.byPn(dl.pn))!;
    const users = await this.deps.repo.usrOf([now.vendor_id, now.owner_id]);
    return {
      pn: now.pn,
      vendorUid: now.vendor_id ?? 0,
      vendorUsr: now.vendor_id != null ? (users.get(now.vendor_id) ?? '') : '',
      adminUid: now.admin_id ?? 0,
      uid: now.owner_id ?? 0,
      usr: now.owner_id != null ? (users.get(now.owner_id) ?? '') : '',
      pid: now.project_id ?? 0,
    };
  }

  private async recordMove(
    caller: Caller,
    action: string,
    dl: CollectorRecord,
    target: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.audit.record({ entity: 'datalogger', entityId: dl.pn, before, after });
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action,
      pn: dl.pn,
      kind: 'bind',
      target,
      before,
      after,
      result: 0,
    });
    this.deps.invalidate(dl.pn);
  }

  /**
   * moveCollectorVendor (operator only): the datalogger becomes manufacturer `vendorUid`'s. Its
   * dealer admin is cleared when the dealer belongs to another manufacturer (the old one); its owner
   * stays only when the owner's tree allows the new manufacturer (276 rule: an owner under a
   * manufacturer holds only that manufacturer's dataloggers), else the move is refused with 276.
   * Every check runs before the first write: a refusal leaves nothing half-written.
   */
  async moveVendor(caller: Caller, pn: string, vendorUid: number): Promise<CollectorMoveDat> {
    if (caller.role !== ROLE.OPERATOR) throw new ApiError(11);
    const dl = await this.visible(caller, pn);
    const vendor = await this.deps.accounts.findById(vendorUid);
    if (!vendor || vendor.role !== ROLE.MANUFACTURER) throw new ApiError(261, 'vendorUid');
    if (dl.vendor_id === vendor.id) throw new ApiError(271);
    if (dl.owner_id != null) {
      const owner = await this.deps.accounts.findById(dl.owner_id);
      const ownerMaker = await this.makerOf(owner);
      if (ownerMaker !== undefined && ownerMaker !== vendor.id) throw new ApiError(276, owner?.usr);
    }
    let adminId = dl.admin_id;
    if (dl.admin_id != null) {
      const dealerMaker = await this.makerOf(await this.deps.accounts.findById(dl.admin_id));
      if (dealerMaker !== undefined && dealerMaker !== vendor.id) adminId = null;
    }
    const before = { vendor_id: dl.vendor_id, admin_id: dl.admin_id, owner_id: dl.owner_id };
    const after = { vendor_id: vendor.id, admin_id: adminId, owner_id: dl.owner_id };
    await this.deps.repo.update(dl.id, { vendor_id: vendor.id, admin_id: adminId });
    await this.recordMove(caller, 'moveCollectorVendor', dl, 'vendor', before, after);
    return this.moveResult(dl);
  }

  /**
   * moveCollectorOwner (operator only): the datalogger goes to plant owner `uid`, onto its plant
   * `plantid` (absent: its default plant, created when it has none), its devices with it. The 273
   * rule of the lower areas applies: an owner under a manufacturer takes only that manufacturer's
   * dataloggers. The dealer admin becomes the new owner's dealer (none when it has none); the old
   * owner's follows of its devices go. Every check runs before the first write.
   */
  async moveOwner(caller: Caller, pn: string, uid: number, plantid: number | undefined): Promise<CollectorMoveDat> {
    if (caller.role !== ROLE.OPERATOR) throw new ApiError(11);
    const dl = await this.visible(caller, pn);
    const owner = await this.deps.accounts.findById(uid);
    if (!owner) throw new ApiError(261, 'uid');
    if (owner.role !== ROLE.OWNER) throw new ApiError(1024, owner.usr);
    const ownerMaker = await this.makerOf(owner);
    if (dl.vendor_id != null && ownerMaker !== undefined && dl.vendor_id !== ownerMaker) throw new ApiError(273, dl.pn);
    let plantId: number | undefined;
    if (plantid !== undefined) {
      if (!(await this.deps.repo.plantOf(owner.id, plantid))) throw new ApiError(260);
      plantId = plantid;
    } else {
      plantId = await this.deps.defaultPlantOf?.(owner.id);
    }
    // already this owner's: nothing to do unless another of its plants is named
    if (dl.owner_id === owner.id && (plantid === undefined || dl.project_id === plantid)) throw new ApiError(271);
    plantId ??= await this.deps.createDefaultPlant!(owner.id, dl);
    const adminId = (await this.deps.repo.dealerAbove(owner.path, owner.id)) ?? null;
    const before = { owner_id: dl.owner_id, project_id: dl.project_id, admin_id: dl.admin_id };
    const after = { owner_id: owner.id, project_id: plantId, admin_id: adminId };
    await this.deps.repo.update(dl.id, after);
    await this.deps.repo.setDevicesPlant(dl.id, plantId);
    if (dl.owner_id != null && dl.owner_id !== owner.id) await this.deps.repo.dropFollows(dl.id, dl.owner_id);
    await this.recordMove(caller, 'moveCollectorOwner', dl, 'owner', before, after);
    return this.moveResult(dl);
  }

  // ----------------------------------------------------------------------------------------
  // Debug, log
  // ----------------------------------------------------------------------------------------

  /** debugCollector: hex bytes to a device address behind the datalogger; its answer back. */
  async debug(
    caller: Caller,
    p: ParsedParamsOf<Catalogue['debugCollector']>,
  ): Promise<{ pn: string; addr: number; step: number; cmd: string; hex: string }> {
    // A sub-administrator needs the debug page of its role (spec: datalogger_debug).
    if (caller.role === ROLE.DISTRIBUTOR && !callerHasPermission(caller, 'datalogger_debug')) throw new ApiError(11);
    if (p.addr === undefined || p.addr === '') throw new ApiError(7, 'addr');
    const step = p.step.trim();
    if (!/^\d{1,9}$/.test(step)) throw new ApiError(6, 'step');
    const hex = normalizeHexBytes(p.cmd);
    if (!hex || !/^[0-9A-Fa-f]{2}(\s+[0-9A-Fa-f]{2})*$/.test(p.cmd.trim())) throw new ApiError(6, 'cmd');
    const dl = await this.writable(caller, p.pn);
    const params = { addr: p.addr, step: Number(step), hex };
    const ack = await this.command(caller, 'debugCollector', dl, 'debug', 'debug', params, {
      target: `addr ${p.addr}`,
      after: hex,
    });
    const answer = typeof ack.result?.hex === 'string' ? (normalizeHexBytes(ack.result.hex) ?? '') : '';
    await this.deps.operations.record({
      accountId: caller.accountId,
      usr: caller.usr,
      action: 'debugCollector',
      pn: dl.pn,
      kind: 'debug',
      target: `addr ${p.addr}`,
      after: hex,
      result: 0,
      detail: answer,
    });
    return { pn: dl.pn, addr: p.addr, step: Number(step), cmd: hex, hex: answer };
  }

  /** webQueryCollectorLog: at most 3 days (its timezone), no future dates (6). */
  async log(
    caller: Caller,
    p: ParsedParamsOf<Catalogue['webQueryCollectorLog']>,
  ): Promise<{ total: number; page: number; pagesize: number; log: CollectorLogRow[] }> {
    const dl = await this.visible(caller, p.pn);
    const tz = (await this.deps.repo.plantName(dl.project_id))?.tz ?? dl.tz_offset;
    const today = dayString(localDay(this.deps.now(), tz));
    if (dataloggerLogRangeError(p.sdate, p.edate, today)) throw new ApiError(6, 'sdate');
    const from = dayStartMs(dayOf(p.sdate), tz);
    const to = dayStartMs(addDays(dayOf(p.edate), 1), tz);
    const { total, rows } = await this.deps.events.list(dl.pn, from, to, p.kind, p.page, p.pagesize);
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      log: rows.map((r) => ({ ...r, gts: fmtTs(r.ts, tz) })),
    };
  }

  // ----------------------------------------------------------------------------------------
  // Reads
  // ----------------------------------------------------------------------------------------

  /** The card's keys: the vendor's five plus issue 15's; `card` derived as of now unless given. */
  private gprsOf(r: CollectorRecord, code?: number): GprsCollectorRow['gprs'] {
    const expireAt = r.card_expire_at != null ? Number(r.card_expire_at) : null;
    const activatedAt = r.card_activated_at != null ? Number(r.card_activated_at) : null;
    const usedKb = Number(r.card_used_kb);
    const limitKb = Number(r.card_limit_kb);
    const status =
      code !== undefined
        ? cardStatusName(code)
        : deriveCardStatus({ expireAt, usedKb, limitKb, now: this.deps.now(), ccid: r.ccid });
    return {
      ccid: r.ccid,
      card: cardStatusCode(status),
      imsi: r.imsi,
      expire: expireAt != null ? dayString(localDay(expireAt, r.tz_offset)) : '',
      traffic: usedKb > 0 ? Math.round((usedKb / 1024) * 100) / 100 : Number(r.gprs_traffic),
      operator: r.card_carrier,
      package: r.card_package,
      usedKb,
      limitKb,
      network: r.card_network,
      cardType: r.card_type,
      area: r.card_area,
      activated: activatedAt != null ? dayString(localDay(activatedAt, r.tz_offset)) : '',
      activatedAt: activatedAt ?? 0,
      expireAt: expireAt ?? 0,
      status,
    };
  }

  /**
   * The cards of `pns` for a recharge order (issue 15), each with its status derived as of now,
   * after the checks of spec §5: every PN visible to the caller (else 257 with that PN, as an
   * unknown one), then protocol checkRechargeBatch (its RECHARGE_BATCH_ERRORS code, the PN at
   * fault as the error's detail). The order's area and card type are the first card's.
   */
  async rechargeCards(caller: Caller, pns: readonly string[]): Promise<Array<RechargeCard & { expireAt: number | null }>> {
    const unique = pns.map((p) => p.trim()).filter((p) => p !== '');
    if (unique.length > RECHARGE_BATCH_MAX) throw new ApiError(13, 'pn');
    if (new Set(unique).size !== unique.length) throw new ApiError(1029, 'pn');
    if (unique.length === 0) throw new ApiError(7, 'pn');
    await this.deps.access.requireAccess({ caller, permission: 'datalogger.read', ids: unique });
    const rows = await this.deps.repo.byPns(unique);
    const now = this.deps.now();
    const cards = unique.map((pn) => {
      const r = rows.get(pn);
      if (!r) throw new ApiError(257, pn);
      const expireAt = r.card_expire_at != null ? Number(r.card_expire_at) : null;
      return {
        pn,
        ccid: r.ccid,
        cardType: r.card_type,
        load: r.load_count,
        area: r.card_area,
        expireAt,
        status: deriveCardStatus({
          expireAt,
          usedKb: Number(r.card_used_kb),
          limitKb: Number(r.card_limit_kb),
          now,
          ccid: r.ccid,
        }),
      };
    });
    const problem = checkRechargeBatch(cards);
    if (problem) throw new ApiError(problem.err, problem.pn ? `${problem.reason}:${problem.pn}` : problem.reason);
    return cards;
  }

  async gprsList(
    caller: Caller,
    p: ParsedParamsOf<Catalogue['queryGprsCollector']>,
  ): Promise<{
    total: number;
    page: number;
    pagesize: number;
    collector: GprsCollectorRow[];
    stat?: Record<CardStatus, number> & { sunset: number };
  }> {
    const scope = await this.deps.access.scopeOf(caller);
    const filter = {
      pn: p.pn,
      ccid: p.ccid,
      load: p.load,
      search: p.search,
      network: p.network,
    };
    const { total, rows } = await this.deps.repo.gprs(
      scope,
      { ...filter, cardStatus: p.cardStatus !== undefined ? cardStatusCode(p.cardStatus) : undefined },
      p.page,
      p.pagesize,
    );
    if (total === 0 && p.pn?.trim()) throw new ApiError(257);
    let stat: Record<CardStatus, number> & { sunset: number } | undefined;
    if (p.stat) {
      const s = await this.deps.repo.gprsStats(scope, filter);
      stat = { normal: 0, warning: 0, overdue: 0, expired: 0, unknown: 0, sunset: s.sunset };
      for (const [code, n] of s.byStatus) stat[cardStatusName(code)] += n;
    }
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      collector: rows.map((r) => ({
        pn: r.pn,
        alias: r.alias,
        datFetch: r.collect_interval,
        timezone: r.tz_offset,
        load: r.load_count,
        status: r.status,
        uid: r.owner_id ?? 0,
        pid: r.project_id ?? 0,
        type: r.type_code,
        fireware: r.firmware,
        gprs: this.gprsOf(r, r.card_code),
      })),
      ...(stat ? { stat } : {}),
    };
  }

  async detail(caller: Caller, pn: string): Promise<CollectorDetail> {
    const r = await this.visible(caller, pn);
    const plant = await this.deps.repo.plantName(r.project_id);
    const tz = plant?.tz ?? r.tz_offset;
    const users = await this.deps.repo.usrOf([r.owner_id, r.admin_id, r.vendor_id]);
    const write = this.mayWrite(caller, r);
    const admin = write && caller.role !== ROLE.OWNER;
    const debugPage = caller.role !== ROLE.DISTRIBUTOR || callerHasPermission(caller, 'datalogger_debug');
    const button = (b: string) => caller.role !== ROLE.DISTRIBUTOR || callerHasPermission(caller, b);
    const actor = actorOf(caller);
    const topic = (k: string) => `sw/dl/${r.pn}/${k}`;
    return {
      pn: r.pn,
      alias: r.alias,
      typeCode: r.type_code,
      model: r.model,
      commMethod: r.comm_method,
      commAddress: r.comm_address,
      devcode: r.devcode ?? 0,
      onlineDomain: r.online_domain,
      status: r.status,
      active: r.active === 1,
      fireware: r.firmware,
      signal: r.signal,
      load: r.load_count,
      commBalance: r.comm_balance,
      devices: await this.deps.repo.deviceCount(r.id),
      lts: r.last_seen_at != null ? fmtTs(Number(r.last_seen_at), tz) : '',
      gts: fmtTs(Number(r.created_at), tz),
      uid: r.owner_id ?? 0,
      usr: r.owner_id != null ? (users.get(r.owner_id) ?? '') : '',
      adminUid: r.admin_id ?? 0,
      adminUsr: r.admin_id != null ? (users.get(r.admin_id) ?? '') : '',
      vendorUid: r.vendor_id ?? 0,
      vendorUsr: r.vendor_id != null ? (users.get(r.vendor_id) ?? '') : '',
      pid: r.project_id ?? 0,
      pname: plant?.name ?? '',
      timezone: tz,
      datFetch: r.collect_interval,
      heartbeat: r.heartbeat_interval,
      storageDays: r.storage_days,
      pollStart: r.poll_start,
      pollEnd: r.poll_end,
      minAddr: r.min_addr,
      maxAddr: r.max_addr,
      transparent: r.transparent === 1,
      protocolSet: r.protocol_set,
      address: {
        country: r.country,
        province: r.province,
        city: r.city,
        county: r.county,
        town: r.district,
        address: r.address,
        lon: r.lon,
        lat: r.lat,
      },
      nominalPower: Number(r.nominal_power),
      installDate: r.install_at != null ? dayString(localDay(Number(r.install_at), tz)) : '',
      installer: r.installer,
      profit: {
        currency: r.currency,
        unitProfit: Number(r.unit_profit),
        buyProfit: Number(r.price_buy),
        sellProfit: Number(r.price_sell),
        useProfit: Number(r.price_use),
        genProfit: Number(r.price_gen),
      },
      gprs: this.gprsOf(r),
      connection: {
        protocol: 'mqtt',
        port: this.deps.mqttPort(),
        dataTopic: topic('data'),
        cmdTopic: topic('cmd'),
        ackTopic: topic('ack'),
      },
      can: {
        edit: write && button('datalogger_edit'),
        reboot: write && button('datalogger_edit'),
        reset: admin && button('datalogger_edit'),
        unbind: admin && button('datalogger_edit'),
        debug: admin && debugPage,
        delete:
          button('datalogger_delete') &&
          ((caller.role === ROLE.OWNER && r.owner_id === caller.accountId) ||
            (caller.role === ROLE.DISTRIBUTOR && r.admin_id === actor)),
        move: caller.role === ROLE.OPERATOR,
      },
    };
  }
}
