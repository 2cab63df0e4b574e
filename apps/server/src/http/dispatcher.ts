import { ApiError, findAction, type ActionDef, type ActionName } from '@sunwatch/protocol';
import type { AppContext, Caller } from '../context.js';
import { callerHasPermission } from '../modules/auth/caller-permissions.js';
import { zodField } from './envelope.js';
import type { ActionHandler, CallInfo, HandlerMap, UploadedFile } from './registry.js';
import { verifySign } from './sign-verify.js';

export interface DispatchRequest {
  action: string;
  /** Decoded parameters (query and/or form body). */
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

/**
 * The one place where a call is checked before its handler runs: the action exists, the sign
 * and token are good (`signed`), the caller's role and role-2 permissions allow it, and the
 * parameters match the action's schema.
 */
export class Dispatcher {
  constructor(
    private readonly ctx: AppContext,
    private readonly handlers: HandlerMap,
    /** Catalogue lookup; replaceable in tests. */
    private readonly lookup: (name: string) => ActionDef | undefined = findAction,
  ) {}

  async dispatch(req: DispatchRequest, trace: DispatchTrace): Promise<unknown> {
    const def = this.lookup(req.action);
    const handler = def ? (this.handlers[def.name as ActionName] as ActionHandler<ActionName> | undefined) : undefined;
    if (!def || !handler) throw new ApiError(9);

    let caller: Caller | undefined;
    if (def.access.auth === 'signed') {
      caller = await this.authenticate(req, trace);
      if (def.access.roles && !(def.access.roles as readonly number[]).includes(caller.role)) {
        throw new ApiError(11);
      }
      // Fails closed: a sub-administrator without a permission list holds no permission.
      if (def.access.permission && !callerHasPermission(caller, def.access.permission)) {
        throw new ApiError(11);
      }
    } else if (typeof req.params.usr === 'string') {
      trace.usr = req.params.usr.slice(0, 64);
    }

    const parsed = def.params.safeParse(req.params);
    if (!parsed.success) throw new ApiError(6, zodField(parsed.error));

    const salt = req.params.salt ?? '';
    const sign = req.params.sign ?? '';
    const call: CallInfo = {
      action: def.name,
      ip: req.ip,
      userAgent: req.userAgent,
      locale: req.locale,
      files: req.files,
      verifyLoginSign: (pwdSha1: string) => verifySign(sign, salt + pwdSha1, req.signed, true),
    };
    const dat: unknown = await handler({ params: parsed.data as never, caller, call }, this.ctx);
    if (!caller && typeof (dat as { uid?: unknown } | undefined)?.uid === 'number') {
      trace.accountId = (dat as { uid: number }).uid; // a sign-in: log who it was
    }
    return dat;
  }

  private async authenticate(req: DispatchRequest, trace: DispatchTrace): Promise<Caller> {
    const token = req.params.token;
    if (!token) throw new ApiError(10);
    const { caller, secret } = await this.ctx.services.auth.authenticate(token);
    trace.accountId = caller.accountId;
    trace.usr = caller.usr;
    const sign = req.params.sign ?? '';
    const salt = req.params.salt ?? '';
    if (!verifySign(sign, salt + secret + token, req.signed, false)) throw new ApiError(4);
    const { config } = this.ctx;
    if (config.replayProtection && !(await this.ctx.repos.sessions.recordSign(sign, this.ctx.now(), config.replayWindowMs))) {
      throw new ApiError(5);
    }
    return caller;
  }
}
