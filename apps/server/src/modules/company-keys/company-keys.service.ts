import { createHash } from 'node:crypto';
import {
  ApiError,
  COMPANY_KEY_CLIENTS,
  COMPANY_KEY_HINT_CHARS,
  type Catalogue,
  type CompanyKeyClient,
  type CompanyKeyRow,
  type ParsedParamsOf,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import { CompanyKeysRepository, type CompanyKeyRecord } from './company-keys.repository.js';

type ListParams = ParsedParamsOf<Catalogue['queryCompanyKeyList']>;
type AddParams = ParsedParamsOf<Catalogue['addCompanyKey']>;
type EditParams = ParsedParamsOf<Catalogue['editCompanyKey']>;

/** SHA-256 hex of a company key: the table finds a key by it and never holds the key. */
export function companyKeyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The last characters of a key, the only part of it ever shown again. */
export function companyKeyHint(key: string): string {
  return [...key].slice(-COMPANY_KEY_HINT_CHARS).join('');
}

function isClient(s: string): s is CompanyKeyClient {
  return (COMPANY_KEY_CLIENTS as readonly string[]).includes(s);
}

function toRow(r: CompanyKeyRecord): CompanyKeyRow {
  return {
    id: r.id,
    company: r.company,
    version: r.version,
    client: isClient(r.client) ? r.client : '',
    domain: r.domain,
    contact: r.contact,
    keyHint: r.key_hint,
    description: r.description,
    enabled: r.enabled === 1,
    hostname: r.hostname,
    seeded: r.seeded === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by ?? '',
  };
}

/** What the audit log keeps of an entry: every field but the key (only its hint). */
function auditView(r: CompanyKeyRecord) {
  return {
    company: r.company,
    version: r.version,
    client: r.client,
    domain: r.domain,
    contact: r.contact,
    description: r.description,
    hostname: r.hostname,
    enabled: r.enabled === 1,
    keyHint: r.key_hint,
  };
}

/**
 * Company keys (issue 14, KEYList): the keys a client sends with sign-in and `reg`, managed by the
 * operator and seeded from COMPANY_KEYS. Every check reads the table (one indexed row by digest):
 * no process-local copy, so a change is effective at once on every server sharing the database.
 * The key is stored only as its SHA-256 digest and a hint; it is never answered, logged or audited.
 */
export class CompanyKeysService {
  private readonly repo: CompanyKeysRepository;

  constructor(
    root: Db,
    private readonly now: Clock,
    private readonly audit?: Pick<AuditService, 'record'>,
  ) {
    this.repo = new CompanyKeysRepository(root);
  }

  /**
   * Adds the configured keys that are not in the table yet (idempotent: a key the operator has
   * edited or disabled keeps its state across restarts). New entries are audited as internal.
   */
  async seed(keys: readonly string[]): Promise<void> {
    for (const key of new Set(keys)) {
      if (key === '') continue;
      const at = this.now();
      const id = await this.repo.insertIfAbsent({
        key_hash: companyKeyDigest(key),
        key_hint: companyKeyHint(key),
        enabled: 1,
        seeded: 1,
        created_at: at,
        updated_at: at,
        updated_by: null,
      });
      if (id !== undefined && this.audit) {
        const row = await this.repo.byId(id);
        if (row) await this.audit.record({ entity: 'company_key', entityId: id, before: null, after: auditView(row) });
      }
    }
  }

  /** Whether a key is known and enabled (err 15 otherwise, decided by the callers). */
  async isValid(key: string): Promise<boolean> {
    if (key === '') return false;
    return this.repo.enabledByHash(companyKeyDigest(key));
  }

  async list(p: ListParams): Promise<{ total: number; page: number; pagesize: number; keys: CompanyKeyRow[] }> {
    const filter = { search: p.search, client: p.client, enabled: p.enabled };
    const total = await this.repo.count(filter);
    const rows = await this.repo.list(filter, p.page * p.pagesize, p.pagesize);
    return { total, page: p.page, pagesize: p.pagesize, keys: rows.map(toRow) };
  }

  async add(caller: Caller, p: AddParams): Promise<{ id: number }> {
    const key = p['company-key'];
    const at = this.now();
    const id = await this.repo.insertIfAbsent({
      key_hash: companyKeyDigest(key),
      key_hint: companyKeyHint(key),
      company: p.company,
      version: p.version,
      client: p.client,
      domain: p.domain.toLowerCase(),
      contact: p.contact,
      description: p.description,
      hostname: p.hostname.toLowerCase(),
      enabled: p.enabled ? 1 : 0,
      seeded: 0,
      created_at: at,
      updated_at: at,
      updated_by: caller.usr,
    });
    if (id === undefined) throw new ApiError(14, 'company-key');
    const row = await this.repo.byId(id);
    await this.audit?.record({ entity: 'company_key', entityId: id, before: null, after: row ? auditView(row) : null });
    return { id };
  }

  async edit(caller: Caller, p: EditParams): Promise<void> {
    const before = await this.repo.byId(p.id);
    if (!before) throw new ApiError(12);
    const key = p['company-key'];
    const changes = {
      company: p.company,
      version: p.version,
      client: p.client,
      domain: p.domain.toLowerCase(),
      contact: p.contact,
      description: p.description,
      hostname: p.hostname.toLowerCase(),
      enabled: p.enabled ? 1 : 0,
    };
    let keyChanges: { key_hash: string; key_hint: string } | undefined;
    if (key !== undefined) {
      const hash = companyKeyDigest(key);
      if (hash !== before.key_hash) {
        const holder = await this.repo.idByHash(hash);
        if (holder !== undefined) throw new ApiError(14, 'company-key');
        keyChanges = { key_hash: hash, key_hint: companyKeyHint(key) };
      }
    }
    const same = (Object.keys(changes) as (keyof typeof changes)[]).every((k) => before[k] === changes[k]);
    if (same && !keyChanges) throw new ApiError(271);
    await this.repo.update(p.id, { ...changes, ...keyChanges, updated_at: this.now(), updated_by: caller.usr });
    const after = await this.repo.byId(p.id);
    await this.audit?.record({
      entity: 'company_key',
      entityId: p.id,
      before: auditView(before),
      after: after ? { ...auditView(after), ...(keyChanges ? { keyReplaced: true } : {}) } : null,
    });
  }

  async setEnabled(caller: Caller, id: number, enabled: boolean): Promise<void> {
    const before = await this.repo.byId(id);
    if (!before) throw new ApiError(12);
    if ((before.enabled === 1) === enabled) return;
    await this.repo.update(id, { enabled: enabled ? 1 : 0, updated_at: this.now(), updated_by: caller.usr });
    await this.audit?.record({
      entity: 'company_key',
      entityId: id,
      before: { enabled: before.enabled === 1 },
      after: { enabled },
    });
  }
}
