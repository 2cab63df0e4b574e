import { sql, type SqlBool } from 'kysely';
import {
  ApiError,
  getDefinition,
  type Catalogue,
  type CollectorTypeCodeRow,
  type ParsedParamsOf,
  type ProtocolBindingRow,
  type ProtocolChangeRow,
  type ProtocolDeviceRow,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { likePattern } from '../../db/like.js';
import { currentDb } from '../../db/transaction.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';

type AddTypeParams = ParsedParamsOf<Catalogue['addCollectorTypeCode']>;
type EditTypeParams = ParsedParamsOf<Catalogue['editCollectorTypeCode']>;
type AddBindingParams = ParsedParamsOf<Catalogue['addProtocolBinding']>;
type BindingListParams = ParsedParamsOf<Catalogue['queryProtocolBindings']>;
type Paging = { search?: string; page: number; pagesize: number };

export interface ProtocolAdminDeps {
  db: Db;
  now: Clock;
  audit: Pick<AuditService, 'record'>;
  /** This instance's copy of the bindings is stale (an edit): ingestion reloads it with the next frame. */
  bindingsChanged(): void;
  /** Forget the ingestion caches of a PN (its device's devcode changed). */
  invalidatePn(pn: string): void;
}

const devcodeName = (devcode: number) => getDefinition(devcode)?.name ?? '';

/**
 * The operator's protocol pages (issue 14; docs/operator/protocol-admin.md): datalogger type
 * codes (applied at registration: `stockType`), devcode bindings (enforced by ingestion through
 * `DevcodeBindings`, modules/telemetry) and devcode changes (history: `device_devcode_changes`,
 * read by modules/devices/devcode-history.ts). Every action is operator-only (dispatcher, roles
 * [15]); every write is audited and runs in the dispatcher's transaction.
 */
export class ProtocolAdminService {
  constructor(private readonly deps: ProtocolAdminDeps) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  // ------------------------------------------------------------------ type codes

  /**
   * The type a new PN registers with (stock adds): its type letter is the rule's type code when a
   * PN rule (factoryCode) covers it, else the character after the adding manufacturer's code.
   * Undefined (registration unchanged) while no type code exists or no letter can be read; a
   * letter naming no enabled type code: 387.
   */
  async stockType(
    pn: string,
    vendorCode: string | null,
  ): Promise<{ typeCode: string; commMethod: string } | undefined> {
    const any = await this.db.selectFrom('datalogger_type_codes').select('code').limit(1).executeTakeFirst();
    if (!any) return undefined;
    const p = pn.toUpperCase();
    const prefixes = [p.slice(0, 4), p.slice(0, 3)].filter((s) => s.length >= 3);
    const rules = await this.db
      .selectFrom('manufacturer_codes')
      .select(['prefix', 'type_code'])
      .where('enabled', '=', 1)
      .where('prefix', 'in', prefixes)
      .execute();
    rules.sort((a, b) => b.prefix.length - a.prefix.length);
    let letter = rules[0]?.type_code.toUpperCase();
    const vc = vendorCode?.trim().toUpperCase();
    if (letter === undefined && vc && p.startsWith(vc) && p.length > vc.length) letter = p[vc.length];
    if (letter === undefined) return undefined;
    const t = await this.db
      .selectFrom('datalogger_type_codes')
      .select(['code', 'comm_method'])
      .where('code', '=', letter)
      .where('enabled', '=', 1)
      .executeTakeFirst();
    if (!t) throw new ApiError(387, pn);
    return { typeCode: t.code, commMethod: t.comm_method };
  }

  async typeCodes(
    p: Paging,
  ): Promise<{ total: number; page: number; pagesize: number; codes: CollectorTypeCodeRow[] }> {
    let q = this.db.selectFrom('datalogger_type_codes as t');
    const s = p.search?.trim();
    if (s) {
      const like = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(t.code) like ${like} escape '\\' or lower(t.name) like ${like} escape '\\' or lower(t.comm_method) like ${like} escape '\\')`,
      );
    }
    const n = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll('t')
      .select((eb) =>
        eb
          .selectFrom('dataloggers as d')
          .select((e) => e.fn.countAll<number | string>().as('c'))
          .whereRef('d.type_code', '=', 't.code')
          .as('dataloggers'),
      )
      .orderBy('t.code')
      .offset(p.page * p.pagesize)
      .limit(p.pagesize)
      .execute();
    return {
      total: Number(n?.n ?? 0),
      page: p.page,
      pagesize: p.pagesize,
      codes: rows.map((r) => ({
        code: r.code,
        name: r.name,
        commMethod: r.comm_method,
        description: r.description,
        enabled: Number(r.enabled) === 1,
        dataloggers: Number(r.dataloggers ?? 0),
        updatedBy: r.updated_by ?? '',
        updatedAt: Number(r.updated_at),
      })),
    };
  }

  async addTypeCode(caller: Caller, p: AddTypeParams): Promise<{ code: string }> {
    const exists = await this.db
      .selectFrom('datalogger_type_codes')
      .select('code')
      .where('code', '=', p.code)
      .executeTakeFirst();
    if (exists) throw new ApiError(14, 'code');
    const at = this.deps.now();
    const row = {
      code: p.code,
      name: p.name,
      comm_method: p.commMethod,
      description: p.description,
      enabled: p.enabled ? 1 : 0,
    };
    await this.db
      .insertInto('datalogger_type_codes')
      .values({ ...row, created_at: at, updated_at: at, updated_by: caller.usr })
      .execute();
    await this.deps.audit.record({ entity: 'datalogger_type_code', entityId: p.code, before: null, after: row });
    return { code: p.code };
  }

  async editTypeCode(caller: Caller, p: EditTypeParams): Promise<void> {
    const b = await this.db
      .selectFrom('datalogger_type_codes')
      .select(['name', 'comm_method', 'description', 'enabled'])
      .where('code', '=', p.code)
      .executeTakeFirst();
    if (!b) throw new ApiError(387, 'code');
    const before = { name: b.name, comm_method: b.comm_method, description: b.description, enabled: Number(b.enabled) };
    const after = {
      name: p.name ?? before.name,
      comm_method: p.commMethod ?? before.comm_method,
      description: p.description ?? before.description,
      enabled: p.enabled === undefined ? before.enabled : p.enabled ? 1 : 0,
    };
    if (JSON.stringify(before) === JSON.stringify(after)) throw new ApiError(271);
    await this.db
      .updateTable('datalogger_type_codes')
      .set({ ...after, updated_at: this.deps.now(), updated_by: caller.usr })
      .where('code', '=', p.code)
      .execute();
    await this.deps.audit.record({ entity: 'datalogger_type_code', entityId: p.code, before, after });
  }

  // ------------------------------------------------------------------ bindings

  async bindings(
    p: BindingListParams,
  ): Promise<{ total: number; page: number; pagesize: number; bindings: ProtocolBindingRow[] }> {
    let q = this.db.selectFrom('protocol_bindings as b');
    if (p.devcode !== undefined) q = q.where('b.devcode', '=', p.devcode);
    const s = p.search?.trim();
    if (s) {
      const like = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(b.type_code) like ${like} escape '\\' or lower(b.pn_from) like ${like} escape '\\' or lower(b.pn_to) like ${like} escape '\\' or lower(b.note) like ${like} escape '\\')`,
      );
    }
    const n = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll('b')
      .orderBy('b.devcode')
      .orderBy('b.id')
      .offset(p.page * p.pagesize)
      .limit(p.pagesize)
      .execute();
    const counts = await Promise.all(
      rows.map((r) => this.covered({ scope: r.scope, typeCode: r.type_code, pnFrom: r.pn_from, pnTo: r.pn_to })),
    );
    return {
      total: Number(n?.n ?? 0),
      page: p.page,
      pagesize: p.pagesize,
      bindings: rows.map((r, i) => ({
        id: Number(r.id),
        devcode: Number(r.devcode),
        devcodeName: devcodeName(Number(r.devcode)),
        scope: r.scope as ProtocolBindingRow['scope'],
        typeCode: r.type_code,
        pnFrom: r.pn_from,
        pnTo: r.pn_to,
        note: r.note,
        enabled: Number(r.enabled) === 1,
        dataloggers: counts[i] ?? 0,
        updatedBy: r.updated_by ?? '',
        updatedAt: Number(r.updated_at),
      })),
    };
  }

  /** Dataloggers a binding scope covers today. */
  private async covered(b: { scope: string; typeCode: string; pnFrom: string; pnTo: string }): Promise<number> {
    let q = this.db.selectFrom('dataloggers').select((eb) => eb.fn.countAll<number | string>().as('n'));
    if (b.scope === 'type') q = q.where('type_code', '=', b.typeCode);
    else if (b.scope === 'prefix') q = q.where('pn', 'like', `${b.pnFrom}%`);
    else q = q.where('pn', '>=', b.pnFrom).where('pn', '<=', b.pnTo);
    const r = await q.executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async addBinding(caller: Caller, p: AddBindingParams): Promise<{ id: number }> {
    if (!getDefinition(p.devcode)) throw new ApiError(353, 'devcode');
    let typeCode = '';
    let pnFrom = '';
    let pnTo = '';
    if (p.scope === 'type') {
      if (!p.typeCode) throw new ApiError(7, 'typeCode');
      const t = await this.db
        .selectFrom('datalogger_type_codes')
        .select('code')
        .where('code', '=', p.typeCode)
        .executeTakeFirst();
      if (!t) throw new ApiError(387, 'typeCode');
      typeCode = p.typeCode;
    } else if (p.scope === 'prefix') {
      if (!p.pnFrom) throw new ApiError(7, 'pnFrom');
      pnFrom = p.pnFrom;
    } else {
      if (!p.pnFrom) throw new ApiError(7, 'pnFrom');
      if (!p.pnTo) throw new ApiError(7, 'pnTo');
      if (p.pnTo < p.pnFrom) throw new ApiError(6, 'pnTo');
      pnFrom = p.pnFrom;
      pnTo = p.pnTo;
    }
    const dup = await this.db
      .selectFrom('protocol_bindings')
      .select('id')
      .where('devcode', '=', p.devcode)
      .where('scope', '=', p.scope)
      .where('type_code', '=', typeCode)
      .where('pn_from', '=', pnFrom)
      .where('pn_to', '=', pnTo)
      .executeTakeFirst();
    if (dup) throw new ApiError(14, 'devcode');
    const at = this.deps.now();
    const values = {
      devcode: p.devcode,
      scope: p.scope,
      type_code: typeCode,
      pn_from: pnFrom,
      pn_to: pnTo,
      note: p.note,
    };
    const row = await this.db
      .insertInto('protocol_bindings')
      .values({ ...values, enabled: 1, created_at: at, updated_at: at, updated_by: caller.usr })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await this.deps.audit.record({
      entity: 'protocol_binding',
      entityId: id,
      before: null,
      after: { ...values, enabled: true },
    });
    this.deps.bindingsChanged();
    return { id };
  }

  async setBindingEnabled(caller: Caller, id: number, enabled: boolean): Promise<void> {
    const b = await this.binding(id);
    if ((Number(b.enabled) === 1) === enabled) return;
    await this.db
      .updateTable('protocol_bindings')
      .set({ enabled: enabled ? 1 : 0, updated_at: this.deps.now(), updated_by: caller.usr })
      .where('id', '=', id)
      .execute();
    const what = {
      devcode: Number(b.devcode),
      scope: b.scope,
      type_code: b.type_code,
      pn_from: b.pn_from,
      pn_to: b.pn_to,
    };
    await this.deps.audit.record({
      entity: 'protocol_binding',
      entityId: id,
      before: { ...what, enabled: !enabled },
      after: { ...what, enabled },
    });
    this.deps.bindingsChanged();
  }

  async deleteBinding(id: number): Promise<void> {
    const b = await this.binding(id);
    await this.db.deleteFrom('protocol_bindings').where('id', '=', id).execute();
    await this.deps.audit.record({
      entity: 'protocol_binding',
      entityId: id,
      before: {
        devcode: Number(b.devcode),
        scope: b.scope,
        type_code: b.type_code,
        pn_from: b.pn_from,
        pn_to: b.pn_to,
        enabled: Number(b.enabled) === 1,
      },
      after: null,
    });
    this.deps.bindingsChanged();
  }

  private async binding(id: number) {
    const b = await this.db.selectFrom('protocol_bindings').selectAll().where('id', '=', id).executeTakeFirst();
    if (!b) throw new ApiError(12);
    return b;
  }

  // ------------------------------------------------------------------ devcode changes

  async devices(p: { pn: string; sn?: string; devaddr?: number }): Promise<{ devices: ProtocolDeviceRow[] }> {
    const dl = await this.db.selectFrom('dataloggers').select('id').where('pn', '=', p.pn).executeTakeFirst();
    if (!dl) throw new ApiError(257, 'pn');
    let q = this.db.selectFrom('devices as d').where('d.datalogger_id', '=', Number(dl.id));
    if (p.sn) q = q.where('d.sn', '=', p.sn);
    if (p.devaddr !== undefined) q = q.where('d.devaddr', '=', p.devaddr);
    const rows = await q
      .select(['d.id', 'd.pn', 'd.sn', 'd.devaddr', 'd.devcode', 'd.alias', 'd.last_sample_at'])
      .select((eb) =>
        eb
          .selectFrom('device_devcode_changes as c')
          .select((e) => e.fn.countAll<number | string>().as('n'))
          .whereRef('c.device_id', '=', 'd.id')
          .as('changes'),
      )
      .orderBy('d.devaddr')
      .orderBy('d.id')
      .limit(50)
      .execute();
    return {
      devices: rows.map((r) => ({
        id: Number(r.id),
        pn: r.pn,
        sn: r.sn,
        devaddr: Number(r.devaddr),
        devcode: Number(r.devcode),
        devcodeName: devcodeName(Number(r.devcode)),
        alias: r.alias,
        lastSampleAt: Number(r.last_sample_at ?? 0),
        changes: Number(r.changes ?? 0),
      })),
    };
  }

  /**
   * Changes a device's devcode. The device row keeps its id (its samples, days, alarms, follows
   * stay attached); a change row records the old devcode and the time from which the new one is in
   * force, so samples stored before decode with the old definition. The live values (encoded with
   * the old definition) are dropped: the next frame brings them back.
   */
  async changeDevcode(
    caller: Caller,
    p: { deviceId: number; devcode: number; reason: string },
  ): Promise<{ id: number }> {
    const dev = await this.db
      .selectFrom('devices')
      .select(['id', 'pn', 'sn', 'devaddr', 'devcode', 'devtype', 'device_type'])
      .where('id', '=', p.deviceId)
      .executeTakeFirst();
    if (!dev) throw new ApiError(258, 'deviceId');
    const def = getDefinition(p.devcode);
    if (!def) throw new ApiError(353, 'devcode');
    const old = Number(dev.devcode);
    if (old === p.devcode) throw new ApiError(271);
    const clash = await this.db
      .selectFrom('devices')
      .select('id')
      .where('pn', '=', dev.pn)
      .where('devcode', '=', p.devcode)
      .where('devaddr', '=', dev.devaddr)
      .where('sn', '=', dev.sn)
      .executeTakeFirst();
    if (clash) throw new ApiError(272, 'devcode');
    // The new devcode is in force from the sample time after the last sample stored under the old
    // one (sample times are the datalogger's, not ours: a frame buffered before the change may
    // carry a later time than the change itself).
    const at = this.deps.now();
    const last = await this.db
      .selectFrom('samples')
      .select((eb) => eb.fn.max('ts').as('ts'))
      .where('device_id', '=', dev.id)
      .executeTakeFirst();
    const fromTs = last?.ts == null ? at : Number(last.ts) + 1;
    await this.db
      .updateTable('devices')
      .set({ devcode: p.devcode, devtype: def.devtype, device_type: def.deviceType })
      .where('id', '=', dev.id)
      .execute();
    await this.db.deleteFrom('device_latest').where('device_id', '=', dev.id).execute();
    const row = await this.db
      .insertInto('device_devcode_changes')
      .values({
        device_id: dev.id,
        pn: dev.pn,
        sn: dev.sn,
        devaddr: dev.devaddr,
        old_devcode: old,
        new_devcode: p.devcode,
        reason: p.reason,
        changed_by: caller.usr,
        changed_at: at,
        from_ts: fromTs,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.deps.audit.record({
      entity: 'device',
      entityId: dev.id,
      before: {
        pn: dev.pn,
        sn: dev.sn,
        devaddr: dev.devaddr,
        devcode: old,
        devtype: dev.devtype,
        device_type: dev.device_type,
      },
      after: {
        pn: dev.pn,
        sn: dev.sn,
        devaddr: dev.devaddr,
        devcode: p.devcode,
        devtype: def.devtype,
        device_type: def.deviceType,
        reason: p.reason,
        from_ts: fromTs,
      },
    });
    this.deps.invalidatePn(dev.pn);
    return { id: Number(row.id) };
  }

  async changes(p: Paging): Promise<{ total: number; page: number; pagesize: number; changes: ProtocolChangeRow[] }> {
    let q = this.db.selectFrom('device_devcode_changes as c');
    const s = p.search?.trim();
    if (s) {
      const like = likePattern(s);
      q = q.where(
        sql<SqlBool>`(lower(c.pn) like ${like} escape '\\' or lower(c.sn) like ${like} escape '\\' or lower(c.changed_by) like ${like} escape '\\')`,
      );
    }
    const n = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll('c')
      .orderBy('c.changed_at', 'desc')
      .orderBy('c.id', 'desc')
      .offset(p.page * p.pagesize)
      .limit(p.pagesize)
      .execute();
    return {
      total: Number(n?.n ?? 0),
      page: p.page,
      pagesize: p.pagesize,
      changes: rows.map((r) => ({
        id: Number(r.id),
        deviceId: Number(r.device_id),
        pn: r.pn,
        sn: r.sn,
        devaddr: Number(r.devaddr),
        oldDevcode: Number(r.old_devcode),
        newDevcode: Number(r.new_devcode),
        reason: r.reason,
        changedBy: r.changed_by,
        changedAt: Number(r.changed_at),
        fromTs: Number(r.from_ts),
      })),
    };
  }
}
