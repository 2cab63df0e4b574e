import { ApiError, type ActionName, type Catalogue, type ParsedParamsOf, type ResultOf } from '@sunwatch/protocol';
import type { AppContext, Caller } from '../context.js';

/** What the dispatcher knows about a call, handed to handlers. */
export interface CallInfo {
  action: string;
  ip: string;
  userAgent: string;
  locale: string;
  /** Checks a login sign against sha1(pwd) over the raw tail candidates (wire-protocol.md §4). */
  verifyLoginSign(pwdSha1: string): boolean;
  /** Multipart uploads (only for actions that declare `upload`), on disk for the call's duration. */
  files: UploadedFile[];
  /** Signed calls: the session's login secret, the RC4 key of sub-account passwords (never log it). */
  sessionSecret?: string;
}

/** A file of a multipart call, streamed to a temporary file that is deleted after the call. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  /** Path of the temporary file holding the bytes. */
  path: string;
  size: number;
}

export interface ActionInput<N extends ActionName> {
  params: ParsedParamsOf<Catalogue[N]>;
  /** Set for `signed` actions (the dispatcher has verified token and sign). */
  caller: Caller | undefined;
  call: CallInfo;
}

export type ActionHandler<N extends ActionName> = (
  input: ActionInput<N>,
  ctx: AppContext,
) => Promise<ResultOf<Catalogue[N]>>;

/** Handlers by action name. Partial in the type; a test fails when a catalogue action has none. */
export type HandlerMap = { [N in ActionName]?: ActionHandler<N> };

/** For handlers of signed actions: the caller, which the dispatcher guarantees. */
export function callerOf(input: { caller: Caller | undefined }): Caller {
  if (!input.caller) throw new ApiError(10);
  return input.caller;
}
