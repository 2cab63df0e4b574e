import {
  ACCOUNT_STATUS,
  ApiError,
  TOO_SIMPLE_PASSWORDS,
  passwordSchema,
  rc4DecryptHex,
  sha1Hex,
  type AuthDat,
  type Role,
} from '@sunwatch/protocol';
import crypto from 'node:crypto';
import type { AppConfig } from '../../config.js';
import type { Caller } from '../../context.js';
import { hashToken, randomHex, type Keyring } from '../../security/keyring.js';
import type { AccountRow, AccountsRepository } from '../accounts/accounts.repository.js';
import { permissionSet, type AccountsService } from '../accounts/accounts.service.js';
import type { AuditService } from '../audit/audit.service.js';
import type { CompanyKeysService } from '../company-keys/company-keys.service.js';
import type { DbHandle } from '../../db/transaction.js';
import type { SessionsRepository } from './sessions.repository.js';
import type { LoginThrottle, ThrottleSubject } from './throttle.service.js';
import type { AuthCache, AuthenticatedSession } from './auth-cache.js';

/** What the service needs to know about the HTTP call. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export interface LoginInput {
  usr: string;
  companyKey: string;
  isRem: boolean;
  client: ClientInfo;
  /** Checks the login sign with the account's sha1(pwd) (wire-protocol.md §2, §4). */
  verifySign: (pwdSha1: string) => boolean;
}

/** Passwords that updatePassword refuses as too simple (their SHA-1 digests; spec §5 via rules.ts). */
const TOO_SIMPLE = new Set(TOO_SIMPLE_PASSWORDS.map(sha1Hex));

/** The wire parameters of updatePassword (`encodePasswordChange` in the protocol package). */
export interface PasswordChange {
  newpwd: string;
  newpwdtext?: string;
}

export class AuthService {
  /** A sealed record with a random password: unknown users are checked against it (equal timing). */
  private readonly dummyAccount: Pick<AccountRow, 'pwd_cipher' | 'data_key'>;

  /** The account row behind each caller object `authenticate` answered (see `sessionAccount`). */
  private readonly rows = new WeakMap<Caller, Readonly<AccountRow>>();

  constructor(
    private readonly config: AppConfig,
    private readonly accounts: AccountsRepository,
    private readonly accountsService: AccountsService,
    private readonly sessions: SessionsRepository,
    private readonly throttle: LoginThrottle,
    private readonly companyKeys: CompanyKeysService,
    private readonly keyring: Keyring,
    private readonly now: () => number,
    /** Audit of sessions, remember-me tokens and password changes (never token or password values). */
    private readonly audit: Pick<AuditService, 'record'>,
    /** For writes that must outlive a failing call's rollback (theft revocation). */
    private readonly tx: Pick<DbHandle, 'durable'>,
    /** The instance's session cache (issue 16); none = every call reads the database. */
    readonly cache?: AuthCache,
  ) {
    const sealed = keyring.sealPassword(randomHex(20));
    this.dummyAccount = { pwd_cipher: sealed.pwdCipher, data_key: sealed.dataKey };
  }

  async requireCompanyKey(key: string): Promise<void> {
    if (!(await this.companyKeys.isValid(key))) throw new ApiError(15);
  }

  /** auth / authSource. New sign-ins never revoke older tokens of the account. */
  async login(input: LoginInput): Promise<AuthDat> {
    const { ip } = input.client;
    await this.requireCompanyKey(input.companyKey);
    await this.throttle.checkAddress(ip);
    const account = await this.accounts.findByUsr(input.usr);
    // An unknown user does the same work as a wrong password (throttle reads, decrypting a
    // record, checking the sign, counting the failure), so the answer time does not tell them
    // apart; only the code differs (261 stays: the web client's node retry needs it, spec §8).
    const subject: ThrottleSubject = account ? account.id : { unknownUsr: input.usr };
    await this.throttle.checkAccount(subject, ip);
    const signOk = input.verifySign(this.accountsService.passwordSha1(account ?? this.dummyAccount));
    if (!account || !signOk) {
      await this.throttle.recordFailure(subject, ip);
      throw new ApiError(account ? 16 : 261);
    }
    this.requireUsable(account);
    await this.throttle.recordSuccess(account.id, ip);
    return (await this.signIn(account, input.client, input.isRem ? randomHex(16) : undefined)).dat;
  }

  /** Signs in with a remember-me token and rotates it (the old one stops working). */
  async loginWithRemember(rem: string, companyKey: string, client: ClientInfo): Promise<AuthDat> {
    await this.requireCompanyKey(companyKey);
    const now = this.now();
    const row = await this.sessions.findRememberByHash(hashToken(rem));
    if (!row) throw new ApiError(10);
    if (row.revoked_at != null) {
      // A rotated token presented again means it was copied: end the whole chain. The call fails
      // (its transaction rolls back), so the revocation and its audit row are written durably.
      if (row.rotated_at != null) {
        await this.tx.durable(async () => {
          const revoked = await this.sessions.revokeRememberFamily(row.family, now);
          await this.audit.record(
            {
              entity: 'remember_token',
              entityId: row.id,
              before: { revoked_at: row.revoked_at },
              after: { family_revoked_at: now, revoked, reason: 'rotated token reused' },
            },
            { accountId: row.account_id, usr: null, action: 'authByRememberToken' },
          );
        });
      }
      throw new ApiError(10);
    }
    if (row.expires_at <= now) throw new ApiError(10);
    if (!(await this.sessions.markRotated(row.id, now))) throw new ApiError(10);
    const account = await this.accounts.findById(row.account_id);
    if (!account) throw new ApiError(10);
    this.requireUsable(account);
    const { dat, remId } = await this.signIn(account, client, row.family);
    await this.audit.record({
      entity: 'remember_token',
      entityId: row.id,
      before: { revoked_at: null, rotated_at: null },
      after: { revoked_at: now, rotated_at: now, replaced_by: remId ?? null },
    });
    return dat;
  }

  /**
   * Resolves the token of a signed call to its caller; err 10 when unknown, revoked or expired.
   * Served from the instance's session cache (`AuthCache`, issue 16) while the database's auth
   * epoch has not moved: a revocation or account change on any instance is seen within
   * AUTH_CACHE_CHECK_MS, on this instance right after the call that made it.
   */
  async authenticate(token: string): Promise<{ caller: Caller; secret: string }> {
    const session = await this.session(hashToken(token), this.now());
    this.rows.set(session.caller, session.account);
    return { caller: session.caller, secret: session.secret };
  }

  /** The session behind a token hash: from the cache while valid, else read (and cached). */
  private async session(tokenHash: string, now: number): Promise<AuthenticatedSession> {
    const cache = this.cache;
    if (!cache?.enabled) return (await this.readSession(tokenHash, now)).session;
    const { hit, epoch } = await cache.lookup(tokenHash, now);
    if (hit) return hit;
    const { session, expiresAt } = await this.readSession(tokenHash, now);
    cache.store(tokenHash, session, expiresAt, epoch);
    return session;
  }

  /**
   * The account row read with the session of this very caller object (as `authenticate` returned
   * it; a copy made later, e.g. with a role's function points, has none): as fresh as the caller
   * itself (AuthCache). Undefined = read it from the database.
   */
  sessionAccount(caller: Caller): Readonly<AccountRow> | undefined {
    return this.rows.get(caller);
  }

  /** The session and its account from the database (the uncached path of `authenticate`). */
  private async readSession(
    tokenHash: string,
    now: number,
  ): Promise<{ session: AuthenticatedSession; expiresAt: number }> {
    const session = await this.sessions.findSessionByHash(tokenHash);
    if (!session || session.revoked_at != null || session.expires_at <= now) throw new ApiError(10);
    const account = await this.accounts.findById(session.account_id);
    if (!account || account.status === ACCOUNT_STATUS.DISABLED || account.status === ACCOUNT_STATUS.CANCELLED) {
      throw new ApiError(10);
    }
    return {
      expiresAt: Number(session.expires_at),
      session: {
        secret: this.keyring.openSessionSecret(session.secret_cipher, tokenHash),
        account: Object.freeze({ ...account }),
        caller: {
          accountId: account.id,
          usr: account.usr,
          role: account.role,
          path: account.path,
          status: account.status,
          adminOf: account.admin_of,
          permissions: permissionSet(account),
          sessionId: session.id,
          ...(session.demo === 1 ? { demo: true } : {}),
          ...(session.inv_code_id != null ? { invCodeId: Number(session.inv_code_id) } : {}),
        },
      },
    };
  }

  /** Revokes one session and audits it (only when it was still live). */
  private async revokeAudited(sessionId: number, extra: Record<string, unknown> = {}): Promise<void> {
    const now = this.now();
    if (await this.sessions.revokeSession(sessionId, now)) {
      await this.audit.record({
        entity: 'session',
        entityId: sessionId,
        before: { revoked_at: null },
        after: { revoked_at: now, ...extra },
      });
    }
  }

  /** New token and secret for the calling session; the old token is revoked. */
  async updateToken(caller: Caller, client: ClientInfo): Promise<{ token: string; secret: string; expire: number }> {
    const issued = await this.issueSession(caller.accountId, client, caller.demo === true, caller.invCodeId ?? null);
    await this.revokeAudited(caller.sessionId, { replaced_by: issued.sessionId });
    return { token: issued.token, secret: issued.secret, expire: this.config.tokenTtlSeconds };
  }

  /** Revokes the calling token and, if given, one of the account's remember-me tokens. */
  async logout(caller: Caller, rem: string | undefined): Promise<void> {
    const now = this.now();
    await this.revokeAudited(caller.sessionId);
    if (rem) {
      const row = await this.sessions.findRememberByHash(hashToken(rem));
      if (row && row.account_id === caller.accountId) {
        const revoked = await this.sessions.revokeRememberFamily(row.family, now);
        if (revoked > 0) {
          await this.audit.record({
            entity: 'remember_token',
            entityId: row.id,
            before: { revoked_at: row.revoked_at },
            after: { family_revoked_at: now, revoked },
          });
        }
      }
    }
  }

  /**
   * updatePassword: newpwd = hex RC4(key = sha1hex(old), sha1hex(new)). Decrypting with the
   * stored digest yields a 40-hex digest only when the caller knew the old password; a wrong
   * old password counts as a failed sign-in (same throttle, err 13 with the wait).
   * `newpwdtext` = hex RC4(key = sha1hex(old), new password) carries the new password so that
   * the rules of spec §5 (`passwordSchema`) apply; without it only PASSWORD_CHANGE_COMPAT
   * accepts the change (vendor clients), checking what a digest allows (too simple, unchanged).
   */
  async updatePassword(caller: Caller, change: PasswordChange, client: ClientInfo): Promise<void> {
    const account = await this.accounts.findById(caller.accountId);
    if (!account) throw new ApiError(10);
    await this.throttle.checkAccount(account.id, client.ip);
    const oldSha1 = this.accountsService.passwordSha1(account);
    const plain = rc4DecryptHex(oldSha1, change.newpwd);
    if (plain === undefined || !/^[0-9a-fA-F]{40}$/.test(plain)) {
      await this.throttle.recordFailure(account.id, client.ip);
      throw new ApiError(16);
    }
    const newSha1 = plain.toLowerCase();
    if (change.newpwdtext !== undefined) {
      const text = rc4DecryptHex(oldSha1, change.newpwdtext);
      if (text === undefined || sha1Hex(text) !== newSha1 || !passwordSchema.safeParse(text).success) {
        throw new ApiError(17);
      }
    } else if (!this.config.passwordChangeCompat) {
      throw new ApiError(17, 'newpwdtext');
    }
    if (newSha1 === oldSha1 || TOO_SIMPLE.has(newSha1)) throw new ApiError(17);
    await this.throttle.recordSuccess(account.id, client.ip);
    await this.accountsService.setPasswordSha1(account.id, newSha1);
    const now = this.now();
    const sessions = await this.sessions.revokeAccountSessions(account.id, now, caller.sessionId);
    const remembered = await this.sessions.revokeAccountRemember(account.id, now);
    // Field names only: neither the old nor the new password (or its envelope) is ever stored here.
    await this.audit.record({
      entity: 'account',
      entityId: account.id,
      before: null,
      after: { changed: ['password'], revoked_sessions: sessions, revoked_remember: remembered },
    });
  }

  /**
   * Signs in to an account without a password, for flows that proved the right another way
   * (issue 12: an experience code opens a read-only demo session; a QR key confirmed by a
   * signed-in browser of the account). 261 unknown account; 25 / 27 disabled or cancelled.
   */
  async signInAs(accountId: number, client: ClientInfo, opts: { demo: boolean; invCodeId?: number }): Promise<AuthDat> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new ApiError(261);
    this.requireUsable(account);
    return (await this.signIn(account, client, undefined, opts.demo, opts.invCodeId ?? null)).dat;
  }

  private requireUsable(account: AccountRow): void {
    if (account.status === ACCOUNT_STATUS.DISABLED) throw new ApiError(25);
    if (account.status === ACCOUNT_STATUS.CANCELLED) throw new ApiError(27);
  }

  /** Issues the session (and remember token, whose row id is `remId`); both audited. */
  private async signIn(
    account: AccountRow,
    client: ClientInfo,
    rememberFamily: string | undefined,
    demo = false,
    invCodeId: number | null = null,
  ): Promise<{ dat: AuthDat; remId?: number }> {
    const { token, secret } = await this.issueSession(account.id, client, demo, invCodeId);
    await this.accountsService.recordLogin(account.id, client.ip);
    const dat: AuthDat = {
      secret,
      expire: this.config.tokenTtlSeconds,
      token,
      role: account.role as Role,
      uid: account.id,
      usr: account.usr,
      pprAuth: this.keyring.mac('ppr', hashToken(token)).slice(0, 32),
    };
    if (rememberFamily !== undefined) {
      const rem = randomHex(32);
      const now = this.now();
      const expiresAt = now + this.config.rememberTtlSeconds * 1000;
      const remId = await this.sessions.insertRemember({
        account_id: account.id,
        token_hash: hashToken(rem),
        family: rememberFamily,
        created_at: now,
        expires_at: expiresAt,
      });
      await this.audit.record({
        entity: 'remember_token',
        entityId: remId,
        before: null,
        after: { account_id: account.id, created_at: now, expires_at: expiresAt },
      });
      dat.rem = rem;
      dat.remExpire = this.config.rememberTtlSeconds;
      return { dat, remId };
    }
    return { dat };
  }

  /** A new session (audited: id, account, expiry, address; never the token or the secret). */
  private async issueSession(
    accountId: number,
    client: ClientInfo,
    demo = false,
    invCodeId: number | null = null,
  ): Promise<{ token: string; secret: string; sessionId: number }> {
    const token = crypto.randomBytes(32).toString('hex');
    const secret = crypto.randomBytes(20).toString('hex');
    const tokenHash = hashToken(token);
    const now = this.now();
    const row = {
      account_id: accountId,
      token_hash: tokenHash,
      secret_cipher: this.keyring.sealSessionSecret(secret, tokenHash),
      created_at: now,
      expires_at: now + this.config.tokenTtlSeconds * 1000,
      ip: client.ip.slice(0, 64),
      user_agent: client.userAgent.slice(0, 512),
      demo: demo ? 1 : 0,
      inv_code_id: demo ? invCodeId : null,
    };
    const sessionId = await this.sessions.insertSession(row);
    await this.audit.record({
      entity: 'session',
      entityId: sessionId,
      before: null,
      after: { account_id: accountId, created_at: now, expires_at: row.expires_at, ip: row.ip, ...(demo ? { demo: true } : {}) },
    });
    return { token, secret, sessionId };
  }
}
