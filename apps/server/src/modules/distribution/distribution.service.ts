import {
  ApiError,
  BATCH_MAX,
  DEFAULT_LOCALE,
  ROLE,
  errorDesc,
  errorMessage,
  isPn,
  normalizeLocale,
  type DistributeDat,
  type DistributeResult,
  type ErrorCode,
  type ErrorContext,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AccountRow, AccountsRepository } from '../accounts/accounts.repository.js';
import type { DistributionRepository, StockRow } from './distribution.repository.js';

/** At most this many rows in one sheet (err 13 beyond). */
export const SHEET_MAX_ROWS = 1000;
/** An alias is at most this long (the catalogue's `alias` limit). */
export const ALIAS_MAX = 128;
/** Order status: rejected (cancelled by the manufacturer) orders cannot be allocated (8). */
export const ORDER_STATUS = { OPEN: 0, REJECTED: 1 } as const;

/** One datalogger to assign: its position (sheet row, or place in the list), PN and alias. */
export interface DistributeItem {
  row: number;
  pn: string;
  alias: string;
}

/** The administrator a call acts for: a sub-administrator acts for the account it administers. */
interface Actor {
  id: number;
  role: number;
  row: AccountRow;
}

export interface DistributionDeps {
  repo: DistributionRepository;
  accounts: Pick<AccountsRepository, 'findById' | 'findInScope' | 'scopeOf'>;
  audit: Pick<AuditService, 'record'>;
  /** Issue 14 PN rules: the manufacturer a new PN belongs to by its prefix, if a rule says so. */
  makerForPn?: (pn: string) => Promise<{ id: number; vendor_code: string | null } | undefined>;
  /** Issue 14 type codes: the type a new PN registers with (387 for a type letter no enabled type code names). */
  stockType?: (pn: string, vendorCode: string | null) => Promise<{ typeCode: string; commMethod: string } | undefined>;
}

/**
 * Datalogger distribution (spec §2, §6, §8 "Order allocation"): a distributor's stock is the
 * dataloggers it administers (`admin_id`) that no owner holds; a manufacturer's is every
 * datalogger it made (`vendor_id`) that no owner holds. Dataloggers go from stock to a
 * subordinate account the caller (or the account it administers) created: an owner (bound to its
 * default plant, created from the PN when it has none) or a distributor (becomes its stock).
 */
export class DistributionService {
  constructor(private readonly deps: DistributionDeps) {}

  private async actor(caller: Caller): Promise<Actor> {
    const id = caller.adminOf ?? caller.accountId;
    const row = await this.deps.accounts.findById(id);
    if (!row) throw new ApiError(10);
    return { id, role: row.role, row };
  }

  /** distAddCollector: a distributor or manufacturer adds a datalogger to its stock. */
  async addToStock(caller: Caller, dpn: string, alias: string | undefined): Promise<void> {
    const actor = await this.actor(caller);
    if (actor.role !== ROLE.DISTRIBUTOR && actor.role !== ROLE.MANUFACTURER) throw new ApiError(1025);
    const pn = dpn.trim();
    if (!isPn(pn)) throw new ApiError(259, 'Dpn');
    const maker = await this.deps.repo.manufacturerOnPath(actor.row.path);
    const existing = (await this.deps.repo.byPns([pn])).get(pn);
    if (existing) {
      if (existing.vendor_id != null && existing.vendor_id !== maker?.id) throw new ApiError(273, pn);
      const claimable =
        actor.role === ROLE.DISTRIBUTOR && existing.owner_id == null && existing.admin_id == null && maker !== undefined;
      if (!claimable) throw new ApiError(522, pn);
      await this.deps.repo.setAdmin(existing.id, actor.id, alias);
      await this.deps.audit.record({
        entity: 'datalogger',
        entityId: pn,
        before: { admin_id: null, alias: existing.alias },
        after: { admin_id: actor.id, alias: alias ?? existing.alias },
      });
      return;
    }
    // a PN rule gives a new PN to its manufacturer: another manufacturer's tree cannot register it
    const ruled = await this.deps.makerForPn?.(pn);
    if (ruled && ruled.id !== maker?.id) throw new ApiError(273, pn);
    const adminId = actor.role === ROLE.DISTRIBUTOR ? actor.id : null;
    const type = await this.deps.stockType?.(pn, maker?.vendor_code ?? null);
    await this.deps.repo.insertStock(
      pn,
      alias ?? '',
      adminId,
      maker?.id ?? null,
      type?.typeCode ?? maker?.vendor_code ?? '',
      type?.commMethod ?? '',
    );
    await this.deps.audit.record({
      entity: 'datalogger',
      entityId: pn,
      before: null,
      after: {
        pn,
        alias: alias ?? '',
        admin_id: adminId,
        vendor_id: maker?.id ?? null,
        ...(type ? { type_code: type.typeCode, comm_method: type.commMethod } : {}),
      },
    });
  }

  /**
   * The account dataloggers go to: an owner or a (non-sub-administrator) distributor in the
   * caller's reach (261 otherwise, missing alike), created by the caller or by the account it
   * administers (1031; the operator may assign to anyone).
   */
  private async target(caller: Caller, actor: Actor, uid: number, context: ErrorContext): Promise<AccountRow> {
    const scope = await this.deps.accounts.scopeOf({
      id: caller.accountId,
      role: caller.role,
      path: caller.path,
      adminOf: caller.adminOf,
    });
    const row = await this.deps.accounts.findInScope(scope, uid);
    const assignable =
      row !== undefined &&
      row.id !== actor.id &&
      row.id !== caller.accountId &&
      (row.role === ROLE.OWNER || (row.role === ROLE.DISTRIBUTOR && row.admin_of == null));
    if (!assignable) throw contextError(261, context, 'uid');
    if (actor.role !== ROLE.OPERATOR && row.created_by !== actor.id && row.created_by !== caller.accountId) {
      throw new ApiError(1031, 'uid');
    }
    return row;
  }

  /**
   * Why `dl` (the row of `pn`, if any) cannot leave the actor's stock, or 0: 1792 when it is not the
   * actor's (missing alike), 273 when a manufacturer names another manufacturer's, 772 when an
   * owner holds it already.
   */
  private refusal(actor: Actor, dl: StockRow | undefined): ErrorCode | 0 {
    if (!dl) return 1792;
    if (actor.role === ROLE.MANUFACTURER) {
      if (dl.vendor_id !== actor.id) return dl.vendor_id != null ? 273 : 1792;
    } else if (actor.role !== ROLE.OPERATOR && dl.admin_id !== actor.id) {
      return 1792;
    }
    if (dl.owner_id != null) return 772;
    return 0;
  }

  /**
   * Moves one datalogger to the target and audits it. The write is conditional on the datalogger
   * still being the unbound stock the call read: false (nothing moved) when a concurrent call
   * moved it between the checks and the write.
   */
  private async assignOne(target: AccountRow, dl: StockRow, alias: string): Promise<boolean> {
    const newAlias = alias !== '' ? alias : undefined;
    const before = { owner_id: dl.owner_id, admin_id: dl.admin_id, project_id: dl.project_id, alias: dl.alias };
    const from = { adminId: dl.admin_id };
    if (target.role === ROLE.OWNER) {
      const plant = (await this.deps.repo.defaultPlantOf(target.id)) ?? (await this.deps.repo.createDefaultPlant(target.id, dl));
      if (!(await this.deps.repo.bindToOwner(dl.id, target.id, plant, newAlias, from))) return false;
      await this.deps.audit.record({
        entity: 'datalogger',
        entityId: dl.pn,
        before,
        after: { ...before, owner_id: target.id, project_id: plant, alias: newAlias ?? dl.alias },
      });
    } else {
      if (!(await this.deps.repo.setAdmin(dl.id, target.id, newAlias, from))) return false;
      await this.deps.audit.record({
        entity: 'datalogger',
        entityId: dl.pn,
        before,
        after: { ...before, admin_id: target.id, alias: newAlias ?? dl.alias },
      });
    }
    return true;
  }

  /**
   * Assigns each item on its own (a result per item): the valid ones are assigned, the others
   * reported with their code — 259 PN format, 6 alias too long, 1029 duplicate of an earlier
   * row, the refusals above, and 1 when a concurrent call moved the datalogger after it was read.
   */
  async assign(caller: Caller, uid: number, items: readonly DistributeItem[], locale: string): Promise<DistributeDat> {
    const actor = await this.actor(caller);
    const target = await this.target(caller, actor, uid, 'general');
    const rows = await this.deps.repo.byPns(items.map((i) => i.pn).filter(isPn));
    const seen = new Set<string>();
    const lang = normalizeLocale(locale) ?? DEFAULT_LOCALE;
    const result: DistributeResult[] = [];
    for (const item of items) {
      let err: ErrorCode | 0 = 0;
      if (!isPn(item.pn)) err = 259;
      else if (item.alias.length > ALIAS_MAX) err = 6;
      else if (seen.has(item.pn)) err = 1029;
      else err = this.refusal(actor, rows.get(item.pn));
      if (isPn(item.pn)) seen.add(item.pn);
      if (err === 0) {
        const dl = rows.get(item.pn)!;
        // 1 (failed): a concurrent call moved it after it was read; this row is reported, the others go on.
        if (!(await this.assignOne(target, dl, item.alias))) err = 1;
        // A datalogger given to an owner leaves the stock: later rows naming it are refused (1029 above).
      }
      result.push({
        row: item.row,
        pn: item.pn,
        alias: item.alias,
        err,
        desc: errorDesc(err),
        msg: err === 0 ? '' : errorMessage(err, lang),
      });
    }
    const ok = result.filter((r) => r.err === 0).length;
    return { total: result.length, ok, failed: result.length - ok, result };
  }

  /** distributeCollector: a comma list of PNs (≤ 256), one alias only for a single PN. */
  async assignList(caller: Caller, uid: number, pnList: string, alias: string | undefined, locale: string): Promise<DistributeDat> {
    const pns = pnList
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (pns.length === 0) throw new ApiError(7, 'pn');
    if (pns.length > BATCH_MAX) throw new ApiError(13, 'pn');
    if (alias !== undefined && alias !== '' && pns.length > 1) throw new ApiError(6, 'alias');
    return this.assign(
      caller,
      uid,
      pns.map((pn, i) => ({ row: i + 1, pn, alias: alias ?? '' })),
      locale,
    );
  }

  /**
   * distributeCollectorByOrder: every datalogger of the order, all or nothing (an order is one
   * delivery). Refusals use the order-allocation wording (spec §8): 7 the order is not the
   * caller's (or does not exist: order numbers cannot be probed), 8 rejected, 23 its manufacturer
   * code names no manufacturer, 12 no PN, 772 already allocated or a datalogger already bound,
   * 259 a PN that is invalid or not in the caller's stock, 261 target not found, 1 (failed) the
   * stock or the order changed under a concurrent call between the checks and the writes.
   */
  async assignOrder(caller: Caller, uid: number, orderNo: string): Promise<DistributeDat> {
    const actor = await this.actor(caller);
    const order = await this.deps.repo.order(orderNo.trim());
    if (!order || (actor.role !== ROLE.OPERATOR && order.dist_id !== actor.id)) throw contextError(7, 'orderAllocation', 'orderNo');
    if (order.status === ORDER_STATUS.REJECTED) throw contextError(8, 'orderAllocation', 'orderNo');
    const makerId = await this.deps.repo.manufacturerByCode(order.vendor_code);
    if (makerId === undefined) throw contextError(23, 'orderAllocation', order.vendor_code);
    const pns = await this.deps.repo.orderPns(order.id);
    if (pns.length === 0) throw contextError(12, 'orderAllocation', 'orderNo');
    if (order.bound_to != null) throw contextError(772, 'orderAllocation', 'orderNo');
    const target = await this.target(caller, actor, uid, 'orderAllocation');
    const rows = await this.deps.repo.byPns(pns);
    for (const pn of pns) {
      const dl = rows.get(pn);
      const why = isPn(pn) ? this.refusal(actor, dl) : 259;
      if (why === 772) throw contextError(772, 'orderAllocation', pn);
      if (why !== 0 || dl?.vendor_id !== makerId) throw contextError(259, 'orderAllocation', pn);
    }
    // The checks above read the stock; the writes are conditional on it being unchanged. A datalogger
    // moved (or the order bound) by a concurrent call in between answers 1 "Allocation failed"; the
    // call's transaction then rolls back what this call had moved: still all or nothing.
    for (const pn of pns) {
      if (!(await this.assignOne(target, rows.get(pn)!, ''))) throw contextError(1, 'orderAllocation', pn);
    }
    if (!(await this.deps.repo.markOrderBound(order.id, target.id))) throw contextError(1, 'orderAllocation', 'orderNo');
    await this.deps.audit.record({
      entity: 'datalogger_order',
      entityId: order.order_no,
      before: { bound_to: null },
      after: { bound_to: target.id, pns },
    });
    const result = pns.map((pn, i) => ({ row: i + 1, pn, alias: rows.get(pn)!.alias, err: 0, desc: errorDesc(0), msg: '' }));
    return { total: result.length, ok: result.length, failed: 0, result };
  }
}

/** An error worded for its context (`orderAllocation.<code>` messages of spec §8). */
function contextError(code: ErrorCode, context: ErrorContext, detail?: string): ApiError {
  const key = context === 'orderAllocation' ? `orderAllocation.${code}` : undefined;
  return new ApiError(code, detail, undefined, key);
}
