/**
 * Turns the session's role and role-2 permission lists into booleans that the menus
 * and the guard both read (house style: Ant Design Pro `access.ts`).
 */
import type { PermissionLists, Role } from '@sunwatch/protocol';
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
  allows(rule: AccessRule | undefined): boolean;
  canSee(node: RouteNode): boolean;
}

/**
 * Only role 2 (sub-administrators and distributors) is limited by permission lists;
 * while its lists are unknown nothing is hidden (the server enforces every action).
 */
export function accessFor(subject: AccessSubject | undefined): Access {
  const lists = subject?.role === 2 ? subject.permissions : undefined;
  const modules = new Set(lists?.modules);
  const pages = new Set([...(lists?.firstPages ?? []), ...(lists?.secondPages ?? [])]);
  const buttons = new Set(lists?.buttons);
  const limited = lists !== undefined;
  const hasModule = (m: string) => !limited || modules.has(m);
  const allows = (rule: AccessRule | undefined) => !rule?.module || hasModule(rule.module);
  return {
    canOpenArea: (area) => subject !== undefined && area.roles.includes(subject.role),
    hasModule,
    hasPage: (p) => !limited || pages.has(p),
    hasButton: (b) => !limited || buttons.has(b),
    allows,
    canSee: (node) => allows(node.access),
  };
}
