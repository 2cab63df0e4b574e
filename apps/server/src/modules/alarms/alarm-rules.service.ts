import {
  ApiError,
  type AlarmDeviceType,
  type AlarmRule,
  type AlarmRuleRow,
  type ParsedParamsOf,
  type Catalogue,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import { fmtTs } from '../../shared/local-time.js';
import type { AuditService } from '../audit/audit.service.js';
import type { AlarmsRepository, RuleColumns } from './alarms.repository.js';

/** Most rules one account may keep. */
export const MAX_RULES_PER_ACCOUNT = 100;

type RuleRecord = Awaited<ReturnType<AlarmsRepository['rules']>>[number];

const parseList = <T>(s: string): T[] => {
  try {
    const v: unknown = JSON.parse(s);
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
};

/** A stored rule as the protocol's AlarmRule. */
export function toAlarmRule(r: RuleRecord): AlarmRule {
  return {
    id: Number(r.id),
    name: r.name,
    enabled: Number(r.enabled) === 1,
    stime: r.stime,
    etime: r.etime,
    atype: parseList<AlarmDeviceType>(r.atype),
    pid: parseList<number>(r.pids),
    device: parseList<string>(r.devices),
    level: parseList<number>(r.levels),
    code: parseList<number>(r.codes),
    desc: r.description,
    mute: Number(r.mute) === 1,
    hide: Number(r.hide) === 1,
  };
}

function toWire(r: RuleRecord): AlarmRuleRow {
  const rule = toAlarmRule(r);
  return {
    id: rule.id,
    name: rule.name,
    enable: rule.enabled ? 1 : 0,
    stime: rule.stime,
    etime: rule.etime,
    atype: rule.atype,
    pid: rule.pid,
    device: rule.device,
    level: rule.level,
    code: rule.code,
    desc: rule.desc,
    mute: rule.mute ? 1 : 0,
    hide: rule.hide ? 1 : 0,
    cts: fmtTs(Number(r.created_at), 0),
    uts: fmtTs(Number(r.updated_at), 0),
  };
}

/** The audited view of a rule (no timestamps). */
const auditView = (c: RuleColumns) => ({ ...c });

export interface AlarmRulesServiceDeps {
  repo: AlarmsRepository;
  access: Pick<AccessService, 'requireAccess'>;
  audit: Pick<AuditService, 'record'>;
  now: Clock;
}

type AddParams = ParsedParamsOf<Catalogue['addWarningRule']>;
type EditParams = ParsedParamsOf<Catalogue['editWarningRule']>;

/**
 * Alarm filter rules of an account (spec §2 "Alarms", §3): CRUD for the caller's own rules, and the
 * rules that hide (lists) or mute (notifications) for any account. Another account's rule answers
 * err 12 exactly as a missing one.
 */
export class AlarmRulesService {
  constructor(private readonly deps: AlarmRulesServiceDeps) {}

  /** Every rule of an account (the notifier calls it with the recipient's account). */
  async rulesOf(accountId: number): Promise<AlarmRule[]> {
    return (await this.deps.repo.rules(accountId)).map(toAlarmRule);
  }

  /** The enabled rules of an account that hide alarms from its lists. */
  async hidingRules(accountId: number): Promise<AlarmRule[]> {
    return (await this.rulesOf(accountId)).filter((r) => r.enabled && r.hide);
  }

  async list(caller: Caller, p: { page: number; pagesize: number }) {
    const all = await this.deps.repo.rules(caller.accountId);
    const rows = all.slice(p.page * p.pagesize, (p.page + 1) * p.pagesize).map(toWire);
    return { total: all.length, page: p.page, pagesize: p.pagesize, rule: rows };
  }

  private async checkPlants(caller: Caller, pids: readonly number[] | undefined) {
    if (pids && pids.length > 0)
      await this.deps.access.requireAccess({ caller, permission: 'plant.read', ids: [...pids] });
  }

  async add(caller: Caller, p: AddParams): Promise<{ id: number }> {
    const { repo, audit, now } = this.deps;
    if (!p.mute && !p.hide) throw new ApiError(6, 'mute');
    if ((p.stime === '') !== (p.etime === '')) throw new ApiError(6, 'etime');
    await this.checkPlants(caller, p.pid);
    if ((await repo.ruleCount(caller.accountId)) >= MAX_RULES_PER_ACCOUNT) throw new ApiError(13, 'rules');
    if (await repo.ruleNameTaken(caller.accountId, p.name)) throw new ApiError(516, 'name');
    const cols: RuleColumns = {
      name: p.name,
      enabled: p.enable,
      stime: p.stime,
      etime: p.etime,
      atype: JSON.stringify(p.atype ?? []),
      pids: JSON.stringify(p.pid ?? []),
      devices: JSON.stringify(p.device ?? []),
      levels: JSON.stringify(p.level ?? []),
      codes: JSON.stringify(p.code ?? []),
      description: p.desc,
      mute: p.mute,
      hide: p.hide,
    };
    const t = now();
    const id = await repo.insertRule({ ...cols, account_id: caller.accountId, created_at: t, updated_at: t });
    await audit.record({ entity: 'alarm_rule', entityId: id, before: null, after: auditView(cols) });
    return { id };
  }

  async edit(caller: Caller, p: EditParams): Promise<undefined> {
    const { repo, audit, now } = this.deps;
    const cur = await repo.rule(caller.accountId, p.id);
    if (!cur) throw new ApiError(12);
    const before: RuleColumns = {
      name: cur.name,
      enabled: Number(cur.enabled),
      stime: cur.stime,
      etime: cur.etime,
      atype: cur.atype,
      pids: cur.pids,
      devices: cur.devices,
      levels: cur.levels,
      codes: cur.codes,
      description: cur.description,
      mute: Number(cur.mute),
      hide: Number(cur.hide),
    };
    const after: RuleColumns = {
      name: p.name ?? before.name,
      enabled: p.enable ?? before.enabled,
      stime: p.stime ?? before.stime,
      etime: p.etime ?? before.etime,
      atype: p.atype ? JSON.stringify(p.atype) : before.atype,
      pids: p.pid ? JSON.stringify(p.pid) : before.pids,
      devices: p.device ? JSON.stringify(p.device) : before.devices,
      levels: p.level ? JSON.stringify(p.level) : before.levels,
      codes: p.code ? JSON.stringify(p.code) : before.codes,
      description: p.desc ?? before.description,
      mute: p.mute ?? before.mute,
      hide: p.hide ?? before.hide,
    };
    const changed = (Object.keys(after) as (keyof RuleColumns)[]).filter((k) => after[k] !== before[k]);
    if (changed.length === 0) throw new ApiError(271);
    if (!after.mute && !after.hide) throw new ApiError(6, 'mute');
    if ((after.stime === '') !== (after.etime === '')) throw new ApiError(6, 'etime');
    if (p.pid) await this.checkPlants(caller, p.pid);
    if (p.name !== undefined && (await repo.ruleNameTaken(caller.accountId, p.name, p.id)))
      throw new ApiError(516, 'name');
    const set: Partial<RuleColumns> = {};
    for (const k of changed) (set as Record<string, unknown>)[k] = after[k];
    await repo.updateRule(caller.accountId, p.id, { ...set, updated_at: now() });
    const pick = (c: RuleColumns) => Object.fromEntries(changed.map((k) => [k, c[k]]));
    await audit.record({ entity: 'alarm_rule', entityId: p.id, before: pick(before), after: pick(after) });
    return undefined;
  }

  async del(caller: Caller, id: number): Promise<undefined> {
    const { repo, audit } = this.deps;
    const cur = await repo.rule(caller.accountId, id);
    if (!cur) throw new ApiError(12);
    await repo.deleteRule(caller.accountId, id);
    await audit.record({ entity: 'alarm_rule', entityId: id, before: toWire(cur), after: null });
    return undefined;
  }
}
