import { readFile } from 'node:fs/promises';
import {
  ApiError,
  LOCALES,
  type Catalogue,
  type CustomDomainImage,
  type CustomDomainImageKind,
  type CustomDomainImageType,
  type CustomDomainRow,
  type Locale,
  type ParsedParamsOf,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { UploadedFile } from '../../http/registry.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import { checkImage, domainImageUrl, type CheckedImage } from './custom-domains.images.js';
import { CustomDomainsRepository, type CustomDomainRecord } from './custom-domains.repository.js';

type ListParams = ParsedParamsOf<Catalogue['queryCustomDomainList']>;
type AddParams = ParsedParamsOf<Catalogue['addCustomDomain']>;
type EditParams = ParsedParamsOf<Catalogue['editCustomDomain']>;

/** A host of the branding file, as the start-up seed takes it (pictures already read). */
export interface SeedDomain {
  host: string;
  title: string;
  languages: readonly string[];
  forceLanguage: string;
  demo: boolean;
  qrLogin: boolean;
  contact?: { phoneNum: string; email: string; wechat: string; englishName: string } | undefined;
  logo?: Buffer | undefined;
  background?: Buffer | undefined;
}

const isLocale = (s: string): s is Locale => (LOCALES as readonly string[]).includes(s);
const localesOf = (csv: string): Locale[] => csv.split(',').filter(isLocale);

function imageOf(r: CustomDomainRecord, kind: CustomDomainImageKind): CustomDomainImage | null {
  const type = kind === 'logo' ? r.logo_type : r.background_type;
  const sha = kind === 'logo' ? r.logo_sha : r.background_sha;
  const size = kind === 'logo' ? r.logo_size : r.background_size;
  if (type === '') return null;
  return { type: type as CustomDomainImageType, size, url: domainImageUrl(r.host, kind, type, sha) };
}

export function toDomainRow(r: CustomDomainRecord): CustomDomainRow {
  return {
    id: r.id,
    host: r.host,
    vendorId: r.vendor_id ?? 0,
    vendorName: r.vendor_name || r.vendor_usr || '',
    vendorCode: r.vendor_code ?? '',
    title: r.title,
    languages: localesOf(r.languages),
    forceLanguage: isLocale(r.force_language) ? r.force_language : '',
    demo: r.demo === 1,
    qrLogin: r.qr_login === 1,
    logo: imageOf(r, 'logo'),
    background: imageOf(r, 'background'),
    phoneNum: r.phone_num,
    email: r.email,
    wechat: r.wechat,
    englishName: r.english_name,
    enabled: r.enabled === 1,
    seeded: r.seeded === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by ?? '',
  };
}

/** What the audit log keeps of a domain: its fields and pictures' digests, never the bytes. */
function auditView(r: CustomDomainRecord) {
  return {
    host: r.host,
    vendorId: r.vendor_id,
    title: r.title,
    languages: r.languages,
    forceLanguage: r.force_language,
    demo: r.demo === 1,
    qrLogin: r.qr_login === 1,
    phoneNum: r.phone_num,
    email: r.email,
    wechat: r.wechat,
    englishName: r.english_name,
    logo: r.logo_sha ? `${r.logo_type} ${r.logo_size} B sha256:${r.logo_sha.slice(0, 12)}` : null,
    background: r.background_sha
      ? `${r.background_type} ${r.background_size} B sha256:${r.background_sha.slice(0, 12)}`
      : null,
    enabled: r.enabled === 1,
  };
}

function imageColumns(kind: CustomDomainImageKind, img: CheckedImage | null) {
  return kind === 'logo'
    ? {
        logo: img?.bytes ?? null,
        logo_type: img?.type ?? '',
        logo_sha: img?.sha ?? '',
        logo_size: img?.bytes.length ?? 0,
      }
    : {
        background: img?.bytes ?? null,
        background_type: img?.type ?? '',
        background_sha: img?.sha ?? '',
        background_size: img?.bytes.length ?? 0,
      };
}

/**
 * Custom domains (issue 14, per-manufacturer white-labelling): host name → the entry page's look
 * and options, managed by the operator and seeded from the branding file. Every entry-page
 * lookup reads the table (one indexed row, no process-local copy), so a change shows on the next
 * request on every server sharing the database. Pictures are stored in the row, type-checked by
 * their bytes; an svg that could run or fetch anything is refused.
 */
export class CustomDomainsService {
  readonly repo: CustomDomainsRepository;

  constructor(
    root: Db,
    private readonly now: Clock,
    private readonly audit?: Pick<AuditService, 'record'>,
  ) {
    this.repo = new CustomDomainsRepository(root);
  }

  /**
   * Adds the branding file's hosts that are not in the table yet (insert-only: a host the
   * operator edited, disabled or deleted-and-re-added keeps its state across restarts; one the
   * operator deleted comes back at the next start while the file still names it). A picture the
   * checks refuse is left out and reported to `warn`.
   */
  async seed(domains: readonly SeedDomain[], warn: (msg: string) => void = () => undefined): Promise<void> {
    for (const d of domains) {
      const pictures: Partial<ReturnType<typeof imageColumns>> = {};
      for (const kind of ['logo', 'background'] as const) {
        const bytes = d[kind];
        if (!bytes) continue;
        try {
          Object.assign(pictures, imageColumns(kind, checkImage(bytes)));
        } catch {
          warn(`branding file: the ${kind} of ${d.host} is not a png, jpg, webp or safe svg of at most 1 MB; left out`);
        }
      }
      const at = this.now();
      const id = await this.repo.insertIfAbsent({
        host: d.host.toLowerCase(),
        vendor_id: null,
        title: d.title.slice(0, 60),
        languages: d.languages.filter(isLocale).join(','),
        force_language: isLocale(d.forceLanguage) ? d.forceLanguage : '',
        demo: d.demo ? 1 : 0,
        qr_login: d.qrLogin ? 1 : 0,
        phone_num: d.contact?.phoneNum ?? '',
        email: d.contact?.email ?? '',
        wechat: d.contact?.wechat ?? '',
        english_name: d.contact?.englishName ?? '',
        ...pictures,
        enabled: 1,
        seeded: 1,
        created_at: at,
        updated_at: at,
        updated_by: null,
      });
      if (id !== undefined && this.audit) {
        const row = await this.repo.byId(id);
        if (row)
          await this.audit.record({ entity: 'custom_domain', entityId: id, before: null, after: auditView(row) });
      }
    }
  }

  /** The enabled domain of a host (the entry page's lookup), without picture bytes. */
  byHost(host: string): Promise<CustomDomainRecord | undefined> {
    return this.repo.enabledByHost(host);
  }

  /** The picture bytes of an enabled host's domain. */
  image(host: string, kind: CustomDomainImageKind): Promise<{ bytes: Uint8Array; type: string } | undefined> {
    return this.repo.image(host, kind);
  }

  async list(p: ListParams): Promise<{ total: number; page: number; pagesize: number; domains: CustomDomainRow[] }> {
    const filter = { search: p.search, vendor: p.vendor, enabled: p.enabled };
    const total = await this.repo.count(filter);
    const rows = await this.repo.list(filter, p.page * p.pagesize, p.pagesize);
    return { total, page: p.page, pagesize: p.pagesize, domains: rows.map(toDomainRow) };
  }

  private async fields(p: AddParams) {
    if (p.forceLanguage !== '' && p.languages.length > 0 && !p.languages.includes(p.forceLanguage)) {
      throw new ApiError(6, 'forceLanguage');
    }
    if (!(await this.repo.isManufacturer(p.vendor))) throw new ApiError(261, 'vendor');
    return {
      host: p.host,
      vendor_id: p.vendor,
      title: p.title,
      languages: p.languages.join(','),
      force_language: p.forceLanguage,
      demo: p.demo ? 1 : 0,
      qr_login: p.qrLogin ? 1 : 0,
      phone_num: p.phoneNum,
      email: p.email,
      wechat: p.wechat,
      english_name: p.englishName,
      enabled: p.enabled ? 1 : 0,
    };
  }

  async add(caller: Caller, p: AddParams): Promise<{ id: number }> {
    const fields = await this.fields(p);
    const at = this.now();
    const id = await this.repo.insertIfAbsent({
      ...fields,
      seeded: 0,
      created_at: at,
      updated_at: at,
      updated_by: caller.usr,
    });
    if (id === undefined) throw new ApiError(14, 'host');
    const row = await this.repo.byId(id);
    await this.audit?.record({
      entity: 'custom_domain',
      entityId: id,
      before: null,
      after: row ? auditView(row) : null,
    });
    return { id };
  }

  async edit(caller: Caller, p: EditParams): Promise<void> {
    const before = await this.repo.byId(p.id);
    if (!before) throw new ApiError(12);
    const fields = await this.fields(p);
    if (fields.host !== before.host) {
      const holder = await this.repo.idByHost(fields.host);
      if (holder !== undefined) throw new ApiError(14, 'host');
    }
    const same = (Object.keys(fields) as (keyof typeof fields)[]).every((k) => before[k] === fields[k]);
    if (same) throw new ApiError(271);
    await this.repo.update(p.id, { ...fields, updated_at: this.now(), updated_by: caller.usr });
    const after = await this.repo.byId(p.id);
    await this.audit?.record({
      entity: 'custom_domain',
      entityId: p.id,
      before: auditView(before),
      after: after ? auditView(after) : null,
    });
  }

  async setEnabled(caller: Caller, id: number, enabled: boolean): Promise<void> {
    const before = await this.repo.byId(id);
    if (!before) throw new ApiError(12);
    if ((before.enabled === 1) === enabled) return;
    await this.repo.update(id, { enabled: enabled ? 1 : 0, updated_at: this.now(), updated_by: caller.usr });
    await this.audit?.record({
      entity: 'custom_domain',
      entityId: id,
      before: { enabled: !enabled },
      after: { enabled },
    });
  }

  async remove(id: number): Promise<void> {
    const before = await this.repo.byId(id);
    if (!before) throw new ApiError(12);
    await this.repo.delete(id);
    await this.audit?.record({ entity: 'custom_domain', entityId: id, before: auditView(before), after: null });
  }

  async uploadImage(
    caller: Caller,
    id: number,
    kind: CustomDomainImageKind,
    file: UploadedFile | undefined,
  ): Promise<CustomDomainImage> {
    if (!file) throw new ApiError(7, 'file');
    const before = await this.repo.byId(id);
    if (!before) throw new ApiError(12);
    const img = checkImage(await readFile(file.path));
    await this.repo.update(id, { ...imageColumns(kind, img), updated_at: this.now(), updated_by: caller.usr });
    const after = (await this.repo.byId(id))!;
    await this.audit?.record({
      entity: 'custom_domain',
      entityId: id,
      before: { [kind]: auditView(before)[kind] },
      after: { [kind]: auditView(after)[kind] },
    });
    return imageOf(after, kind)!;
  }

  async removeImage(caller: Caller, id: number, kind: CustomDomainImageKind): Promise<void> {
    const before = await this.repo.byId(id);
    if (!before) throw new ApiError(12);
    if (imageOf(before, kind) === null) throw new ApiError(271);
    await this.repo.update(id, { ...imageColumns(kind, null), updated_at: this.now(), updated_by: caller.usr });
    await this.audit?.record({
      entity: 'custom_domain',
      entityId: id,
      before: { [kind]: auditView(before)[kind] },
      after: { [kind]: null },
    });
  }
}
