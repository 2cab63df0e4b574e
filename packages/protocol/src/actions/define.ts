import type { z } from 'zod';
import type { PermissionModule } from '../permissions.js';
import type { Role } from '../roles.js';

/**
 * How an action is authenticated (wire-protocol.md §2–§3):
 * - `public`: no sign (entry-page helpers such as queryDomainListNotLogin);
 * - `login`: signed with sha1(pwd) (auth, authSource);
 * - `signed`: signed with the session's secret and token.
 */
export type AuthKind = 'public' | 'login' | 'signed';

export interface AccessRule {
  auth: AuthKind;
  /** Roles allowed to call; absent = every authenticated role. */
  roles?: readonly Role[];
  /**
   * Required, on every action: the module permission (permissions.ts) a role-2 account with a
   * permission list must hold to call it (err 11 otherwise; a sub-administrator without a list
   * holds none), or `null` to state that none applies (sign-in, session and personal account
   * actions). Accounts without a permission list (every role but 2) are not limited by it.
   */
  permission: PermissionModule | null;
  /**
   * The function point (a button of PERMISSION_TREE, e.g. `account_add`) a sub-administrator's
   * custom role must grant besides the module (err 11 "No permission, please contact the
   * higher-level administrator" otherwise). Menus and these checks come from the same role data.
   */
  button?: string;
}

/**
 * Files an action accepts in a multipart call (spec §5 "Uploads and files", §9). Without this
 * declaration the server refuses any file part (err 6) and never reads one.
 */
export interface UploadRule {
  /** Name of the multipart file field (the vendor apps use `file`). */
  field: string;
  /** Largest accepted file in bytes, enforced while streaming (err 13 beyond it). */
  maxBytes: number;
  /** Accepted file-name extensions, lower case with the dot (`.bin`). */
  extensions: readonly string[];
  /** Most files per call (default 1). */
  maxFiles?: number;
}

const MB = 1024 * 1024;
/** The upload limits of the product spec (§5, §9), for actions that take files. */
export const UPLOAD_RULES = {
  /** Firmware manager: .bin/.hex/.s19, 8M. */
  firmware: { field: 'file', maxBytes: 8 * MB, extensions: ['.bin', '.hex', '.s19'] },
  /** Upgrade management: firmware up to 1MB. */
  upgradeFirmware: { field: 'file', maxBytes: 1 * MB, extensions: ['.bin', '.hex', '.s19'] },
  /** Images: jpg or png, 8M. */
  image: { field: 'file', maxBytes: 8 * MB, extensions: ['.jpg', '.jpeg', '.png'] },
  /** Project (plant) image: jpg or png, 1M. */
  projectImage: { field: 'file', maxBytes: 1 * MB, extensions: ['.jpg', '.jpeg', '.png'] },
  /** Batch datalogger / account assignment sheets. */
  sheet: { field: 'file', maxBytes: 8 * MB, extensions: ['.xlsx', '.xls'] },
} as const satisfies Record<string, UploadRule>;

export interface ActionDef<Name extends string = string, P extends z.ZodType = z.ZodType, R = unknown> {
  name: Name;
  params: P;
  access: AccessRule;
  /**
   * True when the action changes state (creates, updates, deletes, issues or revokes anything,
   * sign-ins included). Such calls must be signed over every parameter and are refused when
   * their sign was seen before (wire-protocol.md §4a); mutating handlers run in a transaction.
   */
  mutates: boolean;
  /**
   * True when the handler waits on a datalogger (a command and its ack, up to
   * COMMAND_ACK_TIMEOUT_MS). Such a mutating handler is not wrapped in one transaction — that
   * would hold the database for the whole round trip — it opens its own short transactions
   * around its writes; its audit rows are written after it returns.
   */
  waits?: boolean;
  /** Present only on actions that accept multipart files. */
  upload?: UploadRule;
  /** Phantom: the type of `dat` on success. */
  readonly _result?: R;
  /** One line of what it does, for docs and the operator's API page. */
  summary: string;
}

export function defineAction<Name extends string, P extends z.ZodType, R>(def: {
  name: Name;
  params: P;
  access: AccessRule;
  /** Required: does the action change state? (See ActionDef.mutates.) */
  mutates: boolean;
  /** See ActionDef.waits. */
  waits?: boolean;
  upload?: UploadRule;
  summary: string;
  result: ResultMarker<R>;
}): ActionDef<Name, P, R> {
  return {
    name: def.name,
    params: def.params,
    access: def.access,
    mutates: def.mutates,
    ...(def.waits ? { waits: true } : {}),
    ...(def.upload ? { upload: def.upload } : {}),
    summary: def.summary,
  };
}

/** Marker to carry the result type: `result: result<MyDat>()`. */
export interface ResultMarker<R> {
  readonly __result?: R;
}
export function result<R>(): ResultMarker<R> {
  return {};
}

export type ParamsOf<A> = A extends ActionDef<string, infer P, unknown> ? z.input<P> : never;
export type ParsedParamsOf<A> = A extends ActionDef<string, infer P, unknown> ? z.output<P> : never;
export type ResultOf<A> = A extends ActionDef<string, z.ZodType, infer R> ? R : never;

/** The response envelope (wire-protocol.md §1). `msg` is Sunwatch's localised message on errors. */
export interface Envelope<T> {
  err: number;
  desc: string;
  dat?: T;
  msg?: string;
}
