/**
 * Turns the session's role and role-2 permission lists into booleans that the menus
 * and the guard both read (house style: Ant Design Pro `access.ts`).
 */
import { isReadOnlyRole, type PermissionLists, type Role } from '@sunwatch/protocol';
import type { AccessRule, AreaDef, RouteNode } from './routes';

export interface AccessSubject {
  role: Role;
  permissions?: PermissionLists;
}

export interface Access {
  canOpenArea(area: AreaDef): boolean;
  hasModule(module: string): boolean;
  hasPage(page: string): boolean;
  hasButton(button: string): boolean;
  /** The account may look but never change anything (spec §6 viewer). */
  readOnly: boolean;
  allows(rule: AccessRule | undefined): boolean;
  canSee(node: RouteNode): boolean;
}

/**
 * Only role 2 (sub-administrators and distributors) is limited by permission lists;
 * while its lists are unknown nothing is hidden (the server enforces every action).
 * A node's `roles` limit it to those roles; a `writes` node is closed to read-only accounts.
 */
export function accessFor(subject: AccessSubject | undefined): Access {
  const lists = subject?.role === 2 ? subject.permissions : undefined;
  const modules = new Set(lists?.modules);
  const pages = new Set([...(lists?.firstPages ?? []), ...(lists?.secondPages ?? [])]);
  const buttons = new Set(lists?.buttons);
  const limited = lists !== undefined;
  const readOnly = subject !== undefined && isReadOnlyRole(subject.role);
  const hasModule = (m: string) => !limited || modules.has(m);
  const allows = (rule: AccessRule | undefined) => {
    if (!rule) return true;
    if (rule.module && !hasModule(rule.module)) return false;
    if (rule.roles && (subject === undefined || !rule.roles.includes(subject.role))) return false;
    return !(rule.writes && readOnly);
  };
  return {
    canOpenArea: (area) => subject !== undefined && area.roles.includes(subject.role),
    hasModule,
    hasPage: (p) => !limited || pages.has(p),
    hasButton: (b) => !limited || buttons.has(b),
    readOnly,
    allows,
    canSee: (node) => allows(node.access),
  };
}

/** Whether the account may open every node of a chain (a page and all its ancestors). */
export function canOpenChain(access: Access, chain: readonly RouteNode[]): boolean {
  return chain.every((n) => access.canSee(n));
}

/**
 * The child a node opens when opened itself: its default child when the account may open it,
 * else its first child the account may open (a viewer's settings); undefined when the node
 * has no default child or the account may open none of its children.
 */
export function openableDefaultChild(node: RouteNode, access: Access): RouteNode | undefined {
  if (!node.defaultChild) return undefined;
  const children = node.children ?? [];
  const preferred = children.find((c) => c.path === node.defaultChild);
  if (preferred && access.canSee(preferred)) return preferred;
  return children.find((c) => access.canSee(c));
}
