import { createPublicKey, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import {
  ApiError,
  FILE_LIMITS,
  ROLE,
  type DefaultFirmwareRow,
  type FirmwareKeyRow,
  type FirmwareRow,
  type ParsedParamsOf,
  type Catalogue,
} from '@sunwatch/protocol';
import { keyFingerprint, publicKeyFromRaw, verifyFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import type { Caller } from '../../context.js';
import type { DbHandle } from '../../db/transaction.js';
import type { UploadedFile } from '../../http/registry.js';
import type { Keyring } from '../../security/keyring.js';
import { BlobTooLargeError, type BlobStore } from '../../shared/blob-store.js';
import type { Clock } from '../../shared/clock.js';
import { fmtTs } from '../../shared/local-time.js';
import type { AccountRow, AccountsRepository } from '../accounts/accounts.repository.js';
import type { AuditService } from '../audit/audit.service.js';
import type { FirmwareListRecord, FirmwareRepository, SigningKeyRecord } from './firmware.repository.js';

/** The signed download address of a firmware image (GET, no session needed: HMAC of code and expiry). */
export const FIRMWARE_DOWNLOAD_ROUTE = '/upg/api/firmware/download';
/** How long a download address is valid (seconds). */
const DOWNLOAD_TTL_S = 5 * 60;

export interface FirmwareDeps {
  repo: FirmwareRepository;
  dbh: DbHandle;
  blobs: BlobStore;
  accounts: Pick<AccountsRepository, 'findById'>;
  /** The manufacturer above an account (its path), for distributors. */
  manufacturerOnPath: (path: string) => Promise<{ id: number } | undefined>;
  audit: Pick<AuditService, 'record'>;
  keyring: Pick<Keyring, 'mac'>;
  now: Clock;
}

type UploadParams = ParsedParamsOf<Catalogue['uploadFirmware']>;
type EditParams = ParsedParamsOf<Catalogue['editFirmware']>;
type QueryParams = ParsedParamsOf<Catalogue['queryFirmwares']>;

/** What the audit log keeps of a firmware (no blob key: it names the stored file). */
function auditView(f: FirmwareListRecord | undefined) {
  if (!f) return null;
  return {
    code: f.code,
    name: f.name,
    version: f.version,
    type: f.type,
    baudRate: f.baud_rate,
    desc: f.description,
    upgradeMode: f.upgrade_mode,
    note: f.note,
    i18n: f.i18n,
    source: f.source,
    fileName: f.file_name,
    size: f.size,
    sha256: f.sha256,
    keyId: f.key_id,
  };
}

function parseNotes(s: string): Record<string, string> {
  try {
    const v: unknown = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** A public key as raw 32 bytes base64, from raw base64 or a PEM SubjectPublicKeyInfo; undefined when not Ed25519. */
export function normalizePublicKey(input: string): string | undefined {
  const text = input.trim();
  if (text.startsWith('-----BEGIN')) {
    try {
      const key = createPublicKey({ key: text, format: 'pem' });
      if (key.asymmetricKeyType !== 'ed25519') return undefined;
      const der = key.export({ format: 'der', type: 'spki' });
      return Buffer.from(der.subarray(der.length - 32)).toString('base64');
    } catch {
      return undefined;
    }
  }
  if (!/^[A-Za-z0-9+/]{42,43}=?$/.test(text)) return undefined;
  const raw = Buffer.from(text, 'base64');
  if (raw.length !== 32) return undefined;
  const b64 = raw.toString('base64');
  return publicKeyFromRaw(b64) ? b64 : undefined;
}

/**
 * The firmware library (issue 13, docs/firmware/library.md): manufacturer-owned images kept in
 * the blob store (streamed in, SHA-256 computed while streaming), signatures verified against the
 * manufacturer's non-revoked Ed25519 keys at upload, signing keys, default firmware per datalogger
 * type. Every read is scoped (distributors: their manufacturer's; operator: all); a foreign id is
 * 352 like a missing one; every write is audited.
 */
export class FirmwareService {
  constructor(private readonly deps: FirmwareDeps) {}

  private async actorRow(caller: Caller): Promise<{ id: number; row: AccountRow }> {
    const id = caller.adminOf ?? caller.accountId;
    const row = await this.deps.accounts.findById(id);
    if (!row) throw new ApiError(10);
    return { id, row };
  }

  /** The manufacturer whose library the caller sees; undefined for the operator (every one). */
  async readScope(caller: Caller): Promise<number | undefined> {
    if (caller.role === ROLE.OPERATOR) return undefined;
    const { id, row } = await this.actorRow(caller);
    if (row.role === ROLE.MANUFACTURER) return id;
    if (row.role === ROLE.DISTRIBUTOR) {
      const maker = await this.deps.manufacturerOnPath(row.path);
      if (maker) return maker.id;
    }
    throw new ApiError(11);
  }

  /** The manufacturer a write is for: the caller (or the manufacturer it administers); 11 otherwise. */
  async writeVendor(caller: Caller): Promise<{ id: number; row: AccountRow }> {
    const a = await this.actorRow(caller);
    if (a.row.role !== ROLE.MANUFACTURER) throw new ApiError(11);
    return a;
  }

  /** A firmware the scope sees, or 352 (missing, deleted and foreign alike). */
  private async visible(scope: number | undefined, code: string): Promise<FirmwareListRecord> {
    const f = await this.deps.repo.byCode(code);
    if (!f || (scope !== undefined && f.vendor_id !== scope)) throw new ApiError(352);
    return f;
  }

  private async row(f: FirmwareListRecord): Promise<FirmwareRow> {
    return {
      firmware: f.code,
      name: f.name,
      version: f.version,
      type: f.type,
      baudRate: f.baud_rate === null ? null : Number(f.baud_rate),
      desc: f.description,
      upgradeMode: f.upgrade_mode,
      note: f.note,
      notes: parseNotes(f.i18n),
      origin: f.source,
      fileName: f.file_name,
      size: f.size,
      sha256: f.sha256,
      signed: f.key_id !== null && f.signature !== '',
      keyFingerprint: f.key_fingerprint ?? '',
      keyRevoked: f.key_revoked_at !== null,
      vendor: f.vendor_usr,
      uploadTime: fmtTs(f.created_at, 0),
      defaultFor: await this.deps.repo.defaultsUsing(f.id),
    };
  }

  async query(caller: Caller, p: QueryParams): Promise<{ total: number; page: number; pagesize: number; firmware: FirmwareRow[] }> {
    const vendorId = await this.readScope(caller);
    const filter = {
      vendorId,
      search: p.search,
      type: p.type === '' || p.type === undefined ? undefined : p.type,
      source: p.origin === '' || p.origin === undefined ? undefined : p.origin,
    };
    const total = await this.deps.repo.count(filter);
    const rows = await this.deps.repo.list(filter, p.page * p.pagesize, p.pagesize);
    const firmware: FirmwareRow[] = [];
    for (const r of rows) firmware.push(await this.row(r));
    return { total, page: p.page, pagesize: p.pagesize, firmware };
  }

  /** The key that verifies `signature` over `sha256` among the vendor's non-revoked keys. */
  private async verifyingKey(vendorId: number, sha256: string, signature: string): Promise<SigningKeyRecord | undefined> {
    const keys = await this.deps.repo.keys(vendorId);
    return keys.find((k) => k.revoked_at === null && verifyFirmwareDigest(k.public_key, sha256, signature));
  }

  /**
   * uploadFirmware: streams the uploaded file into the blob store (hashing as it goes), verifies
   * the signature, then records the firmware. A refused upload leaves no blob and no row.
   */
  async upload(caller: Caller, p: UploadParams, file: UploadedFile | undefined): Promise<{ firmware: string; sha256: string; size: number; signed: boolean; keyFingerprint: string }> {
    const { id: vendorId } = await this.writeVendor(caller);
    if (!file) throw new ApiError(7, 'file');
    if (p.firmwareName === '') throw new ApiError(7, 'firmwareName');
    if (p.firmwareVersion === '') throw new ApiError(7, 'firmwareVersion');
    const source: number = p.origin === '' || p.origin === undefined ? 0 : p.origin;
    const max = source === 1 ? FILE_LIMITS.FIRMWARE_UPGRADE_BYTES : FILE_LIMITS.FIRMWARE_MANAGER_BYTES;
    if (file.size > max) throw new ApiError(13, 'file');
    if (file.size === 0) throw new ApiError(6, 'file');
    const signature = p.signature.replace(/\s+/g, '');
    if (signature !== '' && !/^[A-Za-z0-9+/]{86}(==)?$/.test(signature)) {
      throw new ApiError(6, 'signature', undefined, 'special.firmwareSignatureBad');
    }
    let blob;
    try {
      blob = await this.deps.blobs.put(fs.createReadStream(file.path), { maxBytes: max });
    } catch (e) {
      if (e instanceof BlobTooLargeError) throw new ApiError(13, 'file');
      throw e;
    }
    try {
      let key: SigningKeyRecord | undefined;
      if (signature !== '') {
        key = await this.verifyingKey(vendorId, blob.sha256, signature);
        if (!key) throw new ApiError(6, 'signature', undefined, 'special.firmwareSignatureBad');
      }
      const code = randomBytes(8).toString('hex');
      const now = this.deps.now();
      const id = await this.deps.repo.insert({
        code,
        vendor_id: vendorId,
        name: p.firmwareName,
        version: p.firmwareVersion,
        description: p.desc,
        type: p.type,
        baud_rate: p.baudRate ?? null,
        upgrade_mode: p.upgradeMode,
        note: p.note,
        i18n: JSON.stringify(p.i18n ?? {}),
        source,
        file_name: file.filename.slice(0, 255),
        size: blob.size,
        sha256: blob.sha256,
        signature: key ? signature : '',
        key_id: key ? key.id : null,
        blob_key: blob.key,
        created_by: caller.accountId,
        created_at: now,
      });
      const created = await this.deps.repo.firmwareById(id);
      await this.deps.audit.record({ entity: 'firmware', entityId: code, before: null, after: auditView(created) });
      await this.discardUnlessKept(blob.key);
      return { firmware: code, sha256: blob.sha256, size: blob.size, signed: key !== undefined, keyFingerprint: key?.fingerprint ?? '' };
    } catch (e) {
      await this.deps.blobs.remove(blob.key);
      throw e;
    }
  }

  async edit(caller: Caller, p: EditParams): Promise<void> {
    const { id: vendorId } = await this.writeVendor(caller);
    const f = await this.visible(vendorId, p.firmware);
    const patch = {
      ...(p.firmwareName !== undefined ? { name: p.firmwareName } : {}),
      ...(p.firmwareVersion !== undefined ? { version: p.firmwareVersion } : {}),
      ...(p.type !== undefined ? { type: p.type } : {}),
      ...(p.baudRate !== undefined ? { baud_rate: p.baudRate } : {}),
      ...(p.desc !== undefined ? { description: p.desc } : {}),
      ...(p.upgradeMode !== undefined ? { upgrade_mode: p.upgradeMode } : {}),
      ...(p.note !== undefined ? { note: p.note } : {}),
      ...(p.i18n !== undefined ? { i18n: JSON.stringify(p.i18n) } : {}),
    };
    if (Object.keys(patch).length === 0) return;
    await this.deps.repo.update(f.id, patch);
    const after = await this.deps.repo.firmwareById(f.id);
    await this.deps.audit.record({ entity: 'firmware', entityId: f.code, before: auditView(f), after: auditView(after) });
  }

  /**
   * delFirmware: refused (8) while a strategy that is neither cancelled nor expired uses it or
   * while it is a default firmware. The row stays (tasks and history name it); the blob goes
   * once the transaction has committed.
   */
  async remove(caller: Caller, code: string): Promise<void> {
    const { id: vendorId } = await this.writeVendor(caller);
    const f = await this.visible(vendorId, code);
    if ((await this.deps.repo.liveStrategiesUsing(f.id, this.deps.now())) > 0) {
      throw new ApiError(8, 'strategy', undefined, 'special.firmwareInUse');
    }
    if ((await this.deps.repo.defaultsUsing(f.id)).length > 0) {
      throw new ApiError(8, 'default', undefined, 'special.firmwareIsDefault');
    }
    await this.deps.repo.update(f.id, { deleted_at: this.deps.now() });
    await this.deps.audit.record({ entity: 'firmware', entityId: f.code, before: auditView(f), after: null });
    await this.discardUnlessKept(f.blob_key);
  }

  /**
   * Once the call's transaction has ended (committed or rolled back), removes the blob unless a
   * live firmware row keeps it: a deleted firmware's image goes, a rolled-back upload leaves no
   * orphan, and a rolled-back delete keeps its image.
   */
  private async discardUnlessKept(blobKey: string): Promise<void> {
    await this.deps.dbh.durable(async () => {
      if (!(await this.deps.repo.blobInUse(blobKey))) await this.deps.blobs.remove(blobKey);
    });
  }

  private sign(code: string, exp: number): string {
    return this.deps.keyring.mac('firmware-download', `${code}.${exp}`);
  }

  async downloadUrl(caller: Caller, code: string): Promise<{ url: string; name: string; size: number; sha256: string; expire: number }> {
    const f = await this.visible(await this.readScope(caller), code);
    const exp = Math.floor(this.deps.now() / 1000) + DOWNLOAD_TTL_S;
    return {
      url: `${FIRMWARE_DOWNLOAD_ROUTE}/${f.code}?exp=${exp}&sig=${this.sign(f.code, exp)}`,
      name: f.file_name,
      size: f.size,
      sha256: f.sha256,
      expire: exp,
    };
  }

  /** The image behind a signed address, or undefined when the address or the firmware is wrong. */
  async openSigned(code: string, exp: number, sig: string) {
    if (!/^[0-9a-f]{16}$/.test(code) || !Number.isInteger(exp) || exp * 1000 < this.deps.now()) return undefined;
    const want = Buffer.from(this.sign(code, exp));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !want.equals(got)) return undefined;
    return this.openImage(code);
  }

  /** The image of a firmware the caller sees (352 otherwise). */
  async openFor(caller: Caller, code: string) {
    const f = await this.visible(await this.readScope(caller), code);
    const opened = await this.openImage(f.code);
    if (!opened) throw new ApiError(352);
    return opened;
  }

  private async openImage(code: string) {
    const f = await this.deps.repo.byCode(code);
    if (!f) return undefined;
    const stream = await this.deps.blobs.open(f.blob_key);
    if (!stream) return undefined;
    return { stream, name: f.file_name, size: f.size, sha256: f.sha256 };
  }

  // --- default firmware ---

  async defaults(caller: Caller, vendorParam: number | undefined): Promise<{ types: DefaultFirmwareRow[] }> {
    const scope = await this.readScope(caller);
    const vendorId = scope ?? vendorParam;
    if (vendorId === undefined) return { types: [] };
    const fleet = await this.deps.repo.fleetTypes(vendorId);
    const defaults = await this.deps.repo.defaults(vendorId);
    const byType = new Map(defaults.map((d) => [d.datalogger_type, d.firmware_id]));
    const types = [...new Set([...fleet.keys(), ...byType.keys()])].sort();
    const out: DefaultFirmwareRow[] = [];
    for (const t of types) {
      const fid = byType.get(t);
      const f = fid === undefined ? undefined : await this.deps.repo.firmwareById(fid);
      out.push({ dataloggerType: t, dataloggers: fleet.get(t) ?? 0, firmware: f && f.deleted_at === null ? await this.row(f) : null });
    }
    return { types: out };
  }

  async setDefault(caller: Caller, type: string, code: string): Promise<void> {
    const { id: vendorId } = await this.writeVendor(caller);
    const beforeId = await this.deps.repo.defaultOf(vendorId, type);
    const before = beforeId === undefined ? null : { dataloggerType: type, firmware: (await this.deps.repo.firmwareById(beforeId))?.code ?? null };
    if (code === '') {
      if (beforeId === undefined) return;
      await this.deps.repo.clearDefault(vendorId, type);
      await this.deps.audit.record({ entity: 'default_firmware', entityId: `${vendorId}:${type}`, before, after: null });
      return;
    }
    const f = await this.visible(vendorId, code);
    if (f.id === beforeId) return;
    await this.deps.repo.setDefault(vendorId, type, f.id, caller.accountId, this.deps.now());
    await this.deps.audit.record({
      entity: 'default_firmware',
      entityId: `${vendorId}:${type}`,
      before,
      after: { dataloggerType: type, firmware: f.code },
    });
  }

  // --- signing keys ---

  async keys(caller: Caller): Promise<{ keys: FirmwareKeyRow[] }> {
    const { id: vendorId } = await this.writeVendor(caller);
    const keys = await this.deps.repo.keys(vendorId);
    return {
      keys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        publicKey: k.public_key,
        fingerprint: k.fingerprint,
        createTime: fmtTs(k.created_at, 0),
        revokeTime: k.revoked_at === null ? '' : fmtTs(k.revoked_at, 0),
      })),
    };
  }

  async addKey(caller: Caller, name: string, publicKey: string): Promise<{ id: number; fingerprint: string }> {
    const { id: vendorId } = await this.writeVendor(caller);
    const raw = normalizePublicKey(publicKey);
    if (!raw) throw new ApiError(6, 'publicKey', undefined, 'special.firmwareKeyInvalid');
    const fingerprint = keyFingerprint(raw);
    if (await this.deps.repo.keyByFingerprint(fingerprint)) throw new ApiError(14, 'publicKey');
    const id = await this.deps.repo.insertKey({
      vendor_id: vendorId,
      name,
      public_key: raw,
      fingerprint,
      created_by: caller.accountId,
      created_at: this.deps.now(),
    });
    await this.deps.audit.record({ entity: 'firmware_signing_key', entityId: id, before: null, after: { name, fingerprint, publicKey: raw } });
    return { id, fingerprint };
  }

  async revokeKey(caller: Caller, id: number): Promise<void> {
    const { id: vendorId } = await this.writeVendor(caller);
    const k = await this.deps.repo.keyById(id);
    if (!k || k.vendor_id !== vendorId) throw new ApiError(12, 'id');
    if (k.revoked_at !== null) throw new ApiError(14, 'id');
    const now = this.deps.now();
    await this.deps.repo.revokeKey(id, now);
    await this.deps.audit.record({
      entity: 'firmware_signing_key',
      entityId: id,
      before: { fingerprint: k.fingerprint, revokedAt: null },
      after: { fingerprint: k.fingerprint, revokedAt: now },
    });
  }
}
