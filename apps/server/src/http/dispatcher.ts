import { ApiError, findAction, type ActionDef, type ActionName, type AuthDat } from '@sunwatch/protocol';
import type { AppContext, Caller } from '../context.js';
import { callerMayCall, withBoundRole } from '../access/permissions.js';
import { hashToken } from '../security/keyring.js';
import { zodField } from './envelope.js';
import { printableKey } from './params.js';
import type { ActionHandler, CallInfo, HandlerMap, UploadedFile } from './registry.js';
import { matchSign, unsignedKeys } from './sign-verify.js';

export interface DispatchRequest {
  action: string;
  /** Decoded parameters (query and/or form body, multipart fields), each key once. */
  params: Record<string, string>;
  /** The raw, undecoded string the client signed: the query, or the form body. */
  signed: string;
  ip: string;
  userAgent: string;
  locale: string;
  files: UploadedFile[];
}

/** Who turned out to be calling, for the action log. */
export interface DispatchTrace {
  accountId: number | null;
  usr: string | null;
}

/** A call that passed every check that needs no body: action, token, sign, salt, replay, access. */
export interface AuthorizedCall {
  def: ActionDef;
  handler: ActionHandler<ActionName>;
  caller: Caller | undefined;
  /** Keys the sign covers (signed actions); login calls are checked in their handler. */
  covers: ReadonlySet<string> | undefined;
  /** The session's login secret (signed actions): the RC4 key of sub-account passwords. */
  secret?: string;
}

/**
 * Unsigned parameters a sign-in may carry in the `compatible` policy: client descriptions that
 * change nothing (the short login form of wire-protocol.md §4 rule 4 is sent with them).
 */
const INERT_LOGIN_KEYS: ReadonlySet<string> = new Set([
  'source',
  '_app_client_',
  '_app_id_',
  '_app_version_',
  'i18n',
  'lang',
]);

/** The account a sign-in answered with (`uid`, `usr` of AuthDat), if the result is one. */
function signInOf(dat: unknown): { uid: number; usr: string | null } | undefined {
  const d = dat as { uid?: unknown; usr?: unknown } | undefined;
  if (typeof d?.uid !== 'number') return undefined;
  return { uid: d.uid, usr: typeof d.usr === 'string' ? d.usr : null };
}

/** The epoch-ms instant of a timestamp salt (13 digits ms, 10 digits s); undefined otherwise. */
export function saltInstant(salt: string): number | undefined {
  if (/^\d{13}$/.test(salt)) return Number(salt);
  if (/^\d{10}$/.test(salt)) return Number(salt) * 1000;
  return undefined;
}

/**
 * The one place where a call is checked before its handler runs: the action exists, the sign
 * and token are good (`signed`) and cover what they must, the salt and replay rules of the sign
 * policy hold, the caller's role and role-2 permissions allow it, and the parameters match the
 * action's schema (wire-protocol.md §3–§4a).
 */
export class Dispatcher {
  constructor(
    private readonly ctx: AppContext,
    private readonly handlers: HandlerMap,
    /** Catalogue lookup; replaceable in tests. */
    private readonly lookup: (name: string) => ActionDef | undefined = findAction,
  ) {}

  /** The action's definition, or err 9 when there is none (or no handler). */
  resolve(name: string): { def: ActionDef; handler: ActionHandler<ActionName> } {
    const def = this.lookup(name);
    const handler = def ? (this.handlers[def.name as ActionName] as ActionHandler<ActionName> | undefined) : undefined;
    if (!def || !handler) throw new ApiError(9);
    return { def, handler };
  }

  async dispatch(req: DispatchRequest, trace: DispatchTrace): Promise<unknown> {
    return this.run(await this.authorize(req, trace), req, trace);
  }

  /** Every check that needs no request body (multipart uploads are read only after it). */
  async authorize(req: DispatchRequest, trace: DispatchTrace): Promise<AuthorizedCall> {
    const { def, handler } = this.resolve(req.action);
    let caller: Caller | undefined;
    let covers: ReadonlySet<string> | undefined;
    let secret: string | undefined;
    if (def.access.auth === 'signed') {
      ({ caller, covers, secret } = await this.authenticate(def, req, trace));
      caller = await this.admit(def, caller);
    } else {
      if (typeof req.params.usr === 'string') trace.usr = req.params.usr.slice(0, 64);
      if (def.access.auth === 'login' && this.strict) this.checkSalt(req.params.salt ?? '');
    }
    return { def, handler, caller, covers, secret };
  }

  /** The role, demo and role-2 permission checks of a signed call (11 when refused); the caller with its function points. */
  private async admit(def: ActionDef, caller: Caller): Promise<Caller> {
    // A demo session (experience code) is read-only: only its own sign-out and token refresh change state.
    if (caller.demo && def.mutates && def.name !== 'logout' && def.name !== 'updateToken') throw new ApiError(11, 'demo');
    if (def.access.roles && !(def.access.roles as readonly number[]).includes(caller.role)) {
      throw new ApiError(11);
    }
    // Role 2: the function points of its bound custom role, read on every call (no cache), so a
    // role edit counts from the next call of every bound account on every instance.
    caller = await withBoundRole(caller, (id) => this.ctx.services.access.roleFunctions(id));
    // Module AND function point. Fails closed: a sub-administrator without a list holds none.
    if (!callerMayCall(caller, def.access)) throw new ApiError(11);
    return caller;
  }

  /**
   * A signed action reached through another HTTP surface that authenticates with its own sign
   * (the upgrade service /upg/api, docs/firmware/library.md): `verify` checks that surface's sign
   * with the session's secret (err 4 when false); `replayKey` (the sign) is refused when seen
   * before (err 5) for mutating calls or under the strict policy. Then the same role and
   * permission checks as the action endpoint.
   */
  async authorizeSession(
    action: string,
    token: string,
    verify: (secret: string) => boolean,
    replayKey: string,
    instantMs: number | undefined,
    trace: DispatchTrace,
  ): Promise<AuthorizedCall> {
    const { def, handler } = this.resolve(action);
    if (def.access.auth !== 'signed') throw new ApiError(9);
    if (!token) throw new ApiError(10);
    const authn = await this.ctx.services.auth.authenticate(token);
    trace.accountId = authn.caller.accountId;
    trace.usr = authn.caller.usr;
    if (!verify(authn.secret)) throw new ApiError(4);
    if (this.strict || def.mutates || this.ctx.config.replayProtection) await this.refuseReplay(replayKey, instantMs);
    const caller = await this.admit(def, authn.caller);
    return { def, handler, caller, covers: undefined, secret: authn.secret };
  }

  /**
   * Parameters that arrive after authorization (multipart text fields) are outside the signed
   * string: accepted like any unsigned parameter (read actions in `compatible` only), else err 4.
   */
  admitUnsigned(call: AuthorizedCall, keys: readonly string[]): void {
    if (call.def.access.auth === 'public' || keys.length === 0) return;
    this.checkScope(call.def, keys);
  }

  async run(call: AuthorizedCall, req: DispatchRequest, trace: DispatchTrace): Promise<unknown> {
    const { def, handler, caller } = call;
    const parsed = def.params.safeParse(req.params);
    if (!parsed.success) throw new ApiError(6, zodField(parsed.error));

    const salt = req.params.salt ?? '';
    const sign = req.params.sign ?? '';
    let loginSigned = false;
    const info: CallInfo = {
      action: def.name,
      ip: req.ip,
      userAgent: req.userAgent,
      locale: req.locale,
      files: req.files,
      sessionSecret: call.secret,
      verifyLoginSign: (pwdSha1: string) => {
        const match = matchSign(sign, salt + pwdSha1, req.signed, true);
        if (!match) return false;
        // The password is right; what it signs must cover the call (err 4, not a wrong password).
        this.checkScope(def, unsignedKeys(Object.keys(req.params), match.covers));
        loginSigned = true;
        return true;
      },
    };
    const invoke = (): Promise<unknown> => handler({ params: parsed.data as never, caller, call: info }, this.ctx);
    // A mutating call's writes and their audit rows (who, what, before → after).
    const audited = async (): Promise<unknown> => {
      const { result, changes } = await this.ctx.services.audit.collect(invoke);
      if (loginSigned && this.strict) await this.refuseReplayedLogin(sign, salt, result);
      const signedIn = signInOf(result);
      await this.ctx.services.audit.write(changes, {
        accountId: caller?.accountId ?? signedIn?.uid ?? null,
        usr: caller?.usr ?? signedIn?.usr ?? null,
        action: def.name,
      });
      return result;
    };
    let dat: unknown;
    try {
      dat = !def.mutates
        ? await invoke()
        : def.waits
          ? // It waits on a datalogger: no transaction around the round trip (the handler opens
            // short ones around its writes); its audit rows follow once it returned.
            await audited()
          : // One transaction: the handler's writes and their audit rows commit together or not at all.
            await this.ctx.dbh.transaction(audited);
    } finally {
      // A state-changing call may have revoked sessions or changed accounts (the auth epoch moved):
      // this instance's next signed call re-reads the epoch before trusting its session cache.
      if (def.mutates) this.ctx.services.auth.cache?.recheck();
    }
    if (!def.mutates && loginSigned && this.strict) await this.refuseReplayedLogin(sign, salt, dat);
    if (!caller && typeof (dat as { uid?: unknown } | undefined)?.uid === 'number') {
      trace.accountId = (dat as { uid: number }).uid; // a sign-in: log who it was
    }
    return dat;
  }

  private get strict(): boolean {
    return this.ctx.config.signPolicy === 'strict';
  }

  private async authenticate(
    def: ActionDef,
    req: DispatchRequest,
    trace: DispatchTrace,
  ): Promise<{ caller: Caller; covers: ReadonlySet<string>; secret: string }> {
    const token = req.params.token;
    if (!token) throw new ApiError(10);
    const { caller, secret } = await this.ctx.services.auth.authenticate(token);
    trace.accountId = caller.accountId;
    trace.usr = caller.usr;
    const sign = req.params.sign ?? '';
    const salt = req.params.salt ?? '';
    const match = matchSign(sign, salt + secret + token, req.signed, false);
    if (!match) throw new ApiError(4);
    this.checkScope(def, unsignedKeys(Object.keys(req.params), match.covers));
    const instant = this.strict ? this.checkSalt(salt) : undefined;
    const { config } = this.ctx;
    if (this.strict || def.mutates || config.replayProtection) await this.refuseReplay(sign, instant);
    return { caller, covers: match.covers, secret };
  }

  /**
   * Unsigned parameters (other than sign, salt, token): `strict` refuses them all; `compatible`
   * accepts them for read actions, for sign-ins only inert client descriptions (err 4).
   */
  private checkScope(def: ActionDef, unsigned: readonly string[]): void {
    if (unsigned.length === 0) return;
    const login = def.access.auth === 'login';
    const allowed = this.strict ? false : login ? unsigned.every((k) => INERT_LOGIN_KEYS.has(k)) : !def.mutates;
    if (!allowed) throw new ApiError(4, `unsigned ${printableKey(unsigned[0]!)}`);
  }

  /** Strict: the salt is an epoch timestamp (ms or s) within saltWindowMs of now, else err 5. */
  private checkSalt(salt: string): number {
    const instant = saltInstant(salt);
    if (instant === undefined || Math.abs(this.ctx.now() - instant) > this.ctx.config.saltWindowMs) {
      throw new ApiError(5);
    }
    return instant;
  }

  /** Records the sign in the database (shared by every instance); err 5 when it was seen before. */
  private async refuseReplay(sign: string, saltInstantMs: number | undefined): Promise<void> {
    const now = this.ctx.now();
    const { replayWindowMs, saltWindowMs } = this.ctx.config;
    // Kept at least as long as its salt stays acceptable, so no strict sign is ever accepted twice.
    const expiresAt = Math.max(
      now + replayWindowMs,
      saltInstantMs === undefined ? 0 : saltInstantMs + saltWindowMs + 1,
    );
    if (!(await this.ctx.repos.sessions.recordSign(sign, now, expiresAt))) throw new ApiError(5);
  }

  /**
   * Strict sign-ins: a login sign is recorded once it has proven the password (recording
   * unverified signs would let anyone fill the table). When another call recorded it first,
   * the session just issued is revoked and the call answers err 5.
   */
  private async refuseReplayedLogin(sign: string, salt: string, dat: unknown): Promise<void> {
    try {
      await this.refuseReplay(sign, saltInstant(salt));
    } catch (e) {
      const issued = dat as Partial<AuthDat> | undefined;
      const now = this.ctx.now();
      const { sessions } = this.ctx.repos;
      if (typeof issued?.token === 'string') {
        const row = await sessions.findSessionByHash(hashToken(issued.token));
        if (row) await sessions.revokeSession(row.id, now);
      }
      if (typeof issued?.rem === 'string') {
        const row = await sessions.findRememberByHash(hashToken(issued.rem));
        if (row) await sessions.revokeRemember(row.id, now);
      }
      throw e;
    }
  }
}
