import { ApiError, ROLE, type ConsultDat, type DomainAppDat, type DomainCheckData, type NoticeDat, type NoticeMsgType, type ServerNode } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';
import type { AuditService } from '../audit/audit.service.js';
import { toDomainRow, type CustomDomainsService } from '../custom-domains/custom-domains.service.js';
import { FALLBACK_CONTACT, hostAssetExists, type BrandingConfig, type HostBranding } from './branding.config.js';

export interface BrandingDeps {
  db: Db;
  audit: AuditService;
  now: () => number;
  config: BrandingConfig;
  /** Issue 14: the custom domains (host → look), read on every entry-page call. */
  domains: Pick<CustomDomainsService, 'byHost'>;
}

/** A Host header or `domainName` / `host` / `appID` parameter → a bare lower-case host name. */
export function hostName(raw: string | undefined): string {
  const h = (raw ?? '').trim().toLowerCase();
  // [::1]:8080 → [::1]; example.com:8080 → example.com
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}

/** Where the app of a host lives: asset URLs under /branding/<host>/. */
export const assetUrl = (host: string, file: string): string => `/branding/${encodeURIComponent(host)}/${encodeURIComponent(file)}`;

/**
 * Issue 12: what the entry page shows for a host (spec §2, §7): its look and options from its
 * custom domain (issue 14, managed data) or the branding configuration's default, the server nodes, the app of the host, the platform notice and the
 * contact info (database, written by the operator).
 */
export class BrandingService {
  constructor(private readonly deps: BrandingDeps) {}

  private get db(): Db {
    return currentDb(this.deps.db);
  }

  /** The branding file's entry of a host, else its default one (app links, filing number, version label). */
  private fileFor(host: string): { b: HostBranding; own: boolean } {
    const own = this.deps.config.hosts[host];
    return own ? { b: own, own: true } : { b: this.deps.config.default, own: false };
  }

  /**
   * The domain check (`data` of `/hmi/api/hmi/domain/check/…`): everything the entry page adapts.
   * An enabled custom domain of the host (one indexed read, no cache: a change shows on the next
   * request on every server) gives the look and options; else the branding file's default.
   */
  async domainCheck(raw: string | undefined): Promise<DomainCheckData> {
    const host = hostName(raw);
    const d = host ? await this.deps.domains.byHost(host) : undefined;
    const { b } = this.fileFor(host);
    const extras = { app: Boolean(b.app?.ios || b.app?.android), filingNumber: b.filingNumber, versionLabel: b.versionLabel };
    if (d) {
      const row = toDomainRow(d);
      return {
        background: row.background?.url ?? '',
        sysLogo: row.logo?.url ?? '',
        title: row.title,
        languages: row.languages,
        forceLanguage: row.forceLanguage,
        demo: row.demo,
        qrLogin: row.qrLogin,
        ...extras,
      };
    }
    const def = this.deps.config.default;
    return {
      background: def.background ? assetUrl('_default', def.background) : '',
      sysLogo: def.logo ? assetUrl('_default', def.logo) : '',
      title: def.title,
      languages: [...def.languages],
      forceLanguage: def.forceLanguage ?? '',
      demo: def.demo,
      qrLogin: def.qrLogin,
      ...extras,
    };
  }

  /** queryDomainListNotLogin: the configured nodes (this server alone when none are). */
  nodes(): ServerNode[] {
    const { nodes } = this.deps.config;
    return nodes.length ? nodes.map((n) => ({ name: n.name, url: n.url })) : [{ name: 'default', url: '' }];
  }

  /** queryDomainApp: err 12 when the host has no app. */
  app(raw: string | undefined): DomainAppDat {
    const host = hostName(raw);
    const { b, own } = this.fileFor(host);
    const ios = b.app?.ios ?? '';
    const android = b.app?.android ?? '';
    if (!ios && !android) throw new ApiError(12);
    const assetHost = own ? host : '_default';
    const qr = (file: string) => (hostAssetExists(this.deps.config, assetHost, file) ? assetUrl(assetHost, file) : '');
    return { host, ios, android, iosQr: ios ? qr('ios.png') : '', androidQr: android ? qr('android.png') : '' };
  }

  /** getTask: the notice of a client language (1 Chinese, 2 others); err 12 when there is none. */
  async notice(clientLanguage: number): Promise<NoticeDat> {
    const row = await this.db
      .selectFrom('platform_notices')
      .selectAll()
      .where('client_language', '=', clientLanguage === 1 ? 1 : 2)
      .executeTakeFirst();
    if (!row || row.msg_type === 0) throw new ApiError(12);
    return { id: row.id, msgType: row.msg_type as NoticeMsgType, title: row.title, content: row.content, uts: Number(row.updated_at) };
  }

  /**
   * consultParam/getParam: the host's contact row, else its custom domain's contact (when it has
   * one), else the platform's row (''), else the branding file's.
   */
  async contact(raw: string | undefined): Promise<ConsultDat> {
    const host = hostName(raw);
    const { b } = this.fileFor(host);
    const rows = await this.db.selectFrom('consult_params').selectAll().where('host', 'in', [host, '']).execute();
    const own = rows.find((r) => r.host === host);
    if (own) return { phoneNum: own.phone_num, email: own.email, wechat: own.wechat, englishName: own.english_name };
    const d = host ? await this.deps.domains.byHost(host) : undefined;
    if (d && (d.phone_num || d.email || d.wechat || d.english_name)) {
      return { phoneNum: d.phone_num, email: d.email, wechat: d.wechat, englishName: d.english_name };
    }
    const row = rows.find((r) => r.host === '');
    if (row) return { phoneNum: row.phone_num, email: row.email, wechat: row.wechat, englishName: row.english_name };
    const c = b.contact ?? this.deps.config.default.contact;
    return c ? { ...c } : { ...FALLBACK_CONTACT };
  }

  private operatorOnly(caller: Caller): void {
    // roles: [15] in the catalogue already; a sub-administrator is never the operator
    if (caller.role !== ROLE.OPERATOR || caller.adminOf !== null) throw new ApiError(11);
  }

  async setNotice(
    caller: Caller,
    p: { clientLanguage: number; msgType: number; title: string; content: string },
  ): Promise<{ id: number; uts: number }> {
    this.operatorOnly(caller);
    if (p.msgType !== 0 && (p.title === '' || p.content === '')) throw new ApiError(7, p.title === '' ? 'title' : 'content');
    const before = await this.db.selectFrom('platform_notices').selectAll().where('client_language', '=', p.clientLanguage).executeTakeFirst();
    const row = { msg_type: p.msgType, title: p.title, content: p.content, updated_by: caller.accountId, updated_at: this.deps.now() };
    await this.db
      .insertInto('platform_notices')
      .values({ client_language: p.clientLanguage, ...row })
      .onConflict((oc) => oc.column('client_language').doUpdateSet(row))
      .execute();
    const after = await this.db.selectFrom('platform_notices').selectAll().where('client_language', '=', p.clientLanguage).executeTakeFirstOrThrow();
    await this.deps.audit.record({
      entity: 'platform_notice',
      entityId: after.id,
      before: before ? { msgType: before.msg_type, title: before.title, content: before.content } : null,
      after: { clientLanguage: p.clientLanguage, msgType: p.msgType, title: p.title, content: p.content },
    });
    return { id: after.id, uts: Number(after.updated_at) };
  }

  async setContact(caller: Caller, p: { appID: string } & ConsultDat): Promise<void> {
    this.operatorOnly(caller);
    const host = hostName(p.appID);
    const before = await this.db.selectFrom('consult_params').selectAll().where('host', '=', host).executeTakeFirst();
    const row = {
      phone_num: p.phoneNum,
      email: p.email,
      wechat: p.wechat,
      english_name: p.englishName,
      updated_by: caller.accountId,
      updated_at: this.deps.now(),
    };
    await this.db
      .insertInto('consult_params')
      .values({ host, ...row })
      .onConflict((oc) => oc.column('host').doUpdateSet(row))
      .execute();
    await this.deps.audit.record({
      entity: 'consult_param',
      entityId: host || '*',
      before: before ? { phoneNum: before.phone_num, email: before.email, wechat: before.wechat, englishName: before.english_name } : null,
      after: { phoneNum: p.phoneNum, email: p.email, wechat: p.wechat, englishName: p.englishName },
    });
  }
}
