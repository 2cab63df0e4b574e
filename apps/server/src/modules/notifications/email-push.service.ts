import {
  ApiError,
  EMAIL_PUSH_MAX_PER_ACCOUNT,
  EMAIL_PUSH_MAX_PLANTS,
  EMAIL_PUSH_REPORT_TYPES,
  isEmail,
  normalizeLocale,
  type EmailPushReportType,
  type EmailPushRow,
} from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Caller } from '../../context.js';
import type { AuditService } from '../audit/audit.service.js';
import { fmtTs } from '../../shared/local-time.js';
import type { EmailPushDb, EmailPushRepository, EmailPushValues } from './email-push.repository.js';

/** Bit set of alarm levels (bit n = level n). */
export function levelBits(levels: readonly number[]): number {
  return levels.reduce((bits, l) => bits | (1 << l), 0);
}
export function levelsOf(bits: number): number[] {
  return [0, 1, 2, 3].filter((l) => (bits & (1 << l)) !== 0);
}
export function reportBits(types: readonly EmailPushReportType[]): number {
  return types.reduce((bits, t) => bits | (1 << EMAIL_PUSH_REPORT_TYPES.indexOf(t)), 0);
}
export function reportsOf(bits: number): EmailPushReportType[] {
  return EMAIL_PUSH_REPORT_TYPES.filter((_, i) => (bits & (1 << i)) !== 0);
}

interface EditParams {
  email?: string | undefined;
  pid?: number[] | undefined;
  level?: number[] | undefined;
  report?: EmailPushReportType[] | undefined;
  language?: string | undefined;
  enable?: boolean | undefined;
}

/** What the audit log keeps of a subscription (no secrets in it). */
function auditView(v: EmailPushValues, plants: readonly number[]) {
  return {
    email: v.email,
    plants: [...plants].sort((a, b) => a - b),
    level: levelsOf(v.alarmLevels),
    report: reportsOf(v.reportTypes),
    language: v.locale,
    enable: v.enabled,
  };
}

/**
 * E-mail push subscriptions of the calling account (spec §3). Plants must be in the caller's
 * reach (`requireAccess`: a foreign or missing one answers 260 and nothing is written); the
 * mails' language defaults to the language of the call. Every change is audited before → after.
 */
export class EmailPushService {
  constructor(
    private readonly d: {
      repo: EmailPushRepository;
      access: AccessService;
      audit: AuditService;
      now: () => number;
    },
  ) {}

  async list(caller: Caller, p: { page: number; pagesize: number }) {
    const { total, rows, plants } = await this.d.repo.listOf(caller.accountId, p.page, p.pagesize);
    // A plant the caller no longer sees (unshared, moved) is not named; the notifier skips it too.
    const ids = [...new Set([...plants.values()].flat().map((x) => x.pid))];
    const visible = await this.d.access.checkAccess({ caller, permission: 'plant.read', ids });
    for (const [id, list] of plants) plants.set(id, list.filter((x) => visible.has(x.pid)));
    return {
      total,
      page: p.page,
      pagesize: p.pagesize,
      push: rows.map((r): EmailPushRow => this.wire(r, plants.get(r.id) ?? [])),
    };
  }

  async add(
    caller: Caller,
    p: { email: string; pid: number[]; level: number[]; report: EmailPushReportType[]; language?: string | undefined; enable: boolean },
    callLocale: string,
  ): Promise<{ id: number }> {
    const email = this.email(p.email);
    await this.checkPlants(caller, p.pid);
    if ((await this.d.repo.countOf(caller.accountId)) >= EMAIL_PUSH_MAX_PER_ACCOUNT) throw new ApiError(13);
    if (await this.d.repo.sameEmail(caller.accountId, email)) throw new ApiError(14);
    const values: EmailPushValues = {
      email,
      alarmLevels: levelBits(p.level),
      reportTypes: reportBits(p.report),
      locale: normalizeLocale(p.language ?? callLocale) ?? 'en_US',
      enabled: p.enable,
    };
    const id = await this.d.repo.insert(caller.accountId, values, this.d.now());
    await this.d.repo.setPlants(id, p.pid);
    await this.d.audit.record({ entity: 'email_push', entityId: id, before: null, after: auditView(values, p.pid) });
    return { id };
  }

  async edit(caller: Caller, id: number, p: EditParams): Promise<void> {
    const row = await this.d.repo.find(caller.accountId, id);
    if (!row) throw new ApiError(12);
    const plantsBefore = ((await this.d.repo.plantsOf([id])).get(id) ?? []).map((x) => x.pid);
    const before = this.values(row);
    const after: EmailPushValues = {
      email: p.email !== undefined ? this.email(p.email) : before.email,
      alarmLevels: p.level !== undefined ? levelBits(p.level) : before.alarmLevels,
      reportTypes: p.report !== undefined ? reportBits(p.report) : before.reportTypes,
      locale: p.language !== undefined ? (normalizeLocale(p.language) ?? before.locale) : before.locale,
      enabled: p.enable ?? before.enabled,
    };
    if (p.pid !== undefined) await this.checkPlants(caller, p.pid);
    if (after.email.toLowerCase() !== before.email.toLowerCase() && (await this.d.repo.sameEmail(caller.accountId, after.email, id))) {
      throw new ApiError(14);
    }
    const plantsAfter = p.pid ?? plantsBefore;
    const a = auditView(after, plantsAfter);
    const b = auditView(before, plantsBefore);
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    await this.d.repo.update(id, after, this.d.now());
    if (p.pid !== undefined) await this.d.repo.setPlants(id, p.pid);
    await this.d.audit.record({ entity: 'email_push', entityId: id, before: b, after: a });
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const row = await this.d.repo.find(caller.accountId, id);
    if (!row) throw new ApiError(12);
    const plants = ((await this.d.repo.plantsOf([id])).get(id) ?? []).map((x) => x.pid);
    await this.d.repo.delete(id);
    await this.d.audit.record({ entity: 'email_push', entityId: id, before: auditView(this.values(row), plants), after: null });
  }

  private email(raw: string): string {
    const email = raw.trim();
    if (!isEmail(email)) throw new ApiError(20);
    return email;
  }

  private async checkPlants(caller: Caller, pids: readonly number[]): Promise<void> {
    if (pids.length > EMAIL_PUSH_MAX_PLANTS) throw new ApiError(13);
    await this.d.access.requireAccess({ caller, permission: 'plant.read', ids: pids });
  }

  private values(r: EmailPushDb): EmailPushValues {
    return {
      email: r.email,
      alarmLevels: r.alarm_levels,
      reportTypes: r.report_types,
      locale: r.locale,
      enabled: r.enabled === 1,
    };
  }

  private wire(r: EmailPushDb, plants: Array<{ pid: number; pname: string }>): EmailPushRow {
    return {
      id: r.id,
      email: r.email,
      plants,
      level: levelsOf(r.alarm_levels),
      report: reportsOf(r.report_types),
      language: r.locale,
      enable: r.enabled === 1,
      createTime: fmtTs(Number(r.created_at), 0),
      updateTime: fmtTs(Number(r.updated_at), 0),
    };
  }
}
