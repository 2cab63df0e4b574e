import type { z } from 'zod';
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
  /** Role-2 sub-administrator permission name required (see permissions.ts). */
  permission?: string;
}

export interface ActionDef<Name extends string = string, P extends z.ZodType = z.ZodType, R = unknown> {
  name: Name;
  params: P;
  access: AccessRule;
  /** Phantom: the type of `dat` on success. */
  readonly _result?: R;
  /** One line of what it does, for docs and the operator's API page. */
  summary: string;
}

export function defineAction<Name extends string, P extends z.ZodType, R>(def: {
  name: Name;
  params: P;
  access: AccessRule;
  summary: string;
  result: ResultMarker<R>;
}): ActionDef<Name, P, R> {
  return { name: def.name, params: def.params, access: def.access, summary: def.summary };
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
