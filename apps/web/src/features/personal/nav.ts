/**
 * Where the personal pages of an area are (header menu, guide offer), as pure functions of the
 * route table and the account's access: the path of the first node with a given segment that
 * the account may open, else undefined.
 */
import { canOpenChain, type Access } from '../../app/access';
import type { AreaDef, RouteNode } from '../../app/routes';

export function nodePath(area: AreaDef, segment: string, access: Access): string | undefined {
  const walk = (chain: RouteNode[], nodes: readonly RouteNode[]): string | undefined => {
    for (const n of nodes) {
      const here = [...chain, n];
      if (n.path === segment && canOpenChain(access, here)) return [area.base, ...here.map((x) => x.path)].join('/');
      const inner = n.children ? walk(here, n.children) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  return walk([], area.children);
}

/** The top-level pages of an area the account may open, in menu order (the guide's steps). */
export function guideNodes(area: AreaDef, access: Access): RouteNode[] {
  return area.children.filter((n) => n.path !== 'generalintro' && canOpenChain(access, [n]));
}

/** localStorage key remembering that an account saw or dismissed the new-user guide offer. */
export function guideSeenKey(usr: string): string {
  return `sw.guide.seen.${usr}`;
}

export function guideSeen(usr: string): boolean {
  try {
    return localStorage.getItem(guideSeenKey(usr)) === '1';
  } catch {
    return true;
  }
}

export function markGuideSeen(usr: string): void {
  try {
    localStorage.setItem(guideSeenKey(usr), '1');
  } catch {
    /* private mode: offered again next time */
  }
}
