/**
 * The old/new edition switch (spec §2 "old/new edition switch") and the landing page of an
 * account, as pure functions of the route table and the account's access, so that the header
 * button, the guard and the tests share them.
 *
 * Switching edition opens the page of the other edition that does the same thing (the device
 * list stays the device list, a device's detail stays that detail) when the account may open
 * it there; otherwise the other edition's landing page the account may open. It never leads to
 * a page the guard refuses (401).
 */
import { accessFor, canOpenChain, openableDefaultChild, type Access } from './access';
import { areaById, areaOfPath, matchRoute, normalizePath, type AreaDef, type RouteNode } from './routes';
import { homePathFor, type Session } from './session';

/**
 * Pages that sit under another name in the other edition, by area: `[segment here, segment there]`.
 * The classic general area has no device list: its home lists the devices (and holds the detail).
 */
const RENAMED: Partial<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  'generalNew>general': [['deviceno', 'home']],
  'general>generalNew': [['home', 'deviceno']],
};

/** Full path of the node `chain` ends with, under `area`. */
function chainPath(area: AreaDef, chain: readonly RouteNode[]): string {
  return [area.base, ...chain.map((n) => n.path)].join('/');
}

/** The path a node opens to (its openable default child, recursively), or undefined if none. */
function openTarget(area: AreaDef, chain: RouteNode[], access: Access): string | undefined {
  if (!canOpenChain(access, chain)) return undefined;
  const last = chain[chain.length - 1];
  if (last?.defaultChild) {
    const child = openableDefaultChild(last, access);
    return child ? openTarget(area, [...chain, child], access) : undefined;
  }
  return chainPath(area, chain);
}

/**
 * The first page of `area` the account may open: the area's default child when it may, else its
 * pages in menu order (a settings node counts through its openable children).
 */
export function landingPath(area: AreaDef, access: Access): string | undefined {
  if (!access.canOpenArea(area)) return undefined;
  const first = area.children.find((n) => n.path === area.defaultChild);
  const order = first ? [first, ...area.children.filter((n) => n !== first)] : area.children;
  for (const node of order) {
    const target = openTarget(area, [node], access);
    if (target) return target;
  }
  return undefined;
}

/** Whether the account may open `pathname` (a known page of an area it may open). */
export function canOpenPath(pathname: string, access: Access): boolean {
  const match = matchRoute(pathname);
  return !!match && access.canOpenArea(match.area) && canOpenChain(access, match.chain);
}

/** Where an account lands (the `/home` path, sign-in): its role's landing page when it may open it, else the area's first page it may. */
export function landingFor(session: Pick<Session, 'role' | 'isNewEdition' | 'permissions'>): string {
  const home = homePathFor(session);
  const access = accessFor(session);
  if (canOpenPath(home, access)) return home;
  const area = areaOfPath(home);
  return (area && landingPath(area, access)) ?? '/401';
}

/** Candidate relative segment lists in `to` for the page at `segs` of `from`, best first. */
function candidates(from: AreaDef, to: AreaDef, segs: readonly string[], leaf: RouteNode | undefined): string[][] {
  const out: string[][] = [[...segs]];
  for (const [here, there] of RENAMED[`${from.id}>${to.id}`] ?? []) {
    const i = segs.indexOf(here);
    if (i >= 0) out.push([...segs.slice(0, i), there, ...segs.slice(i + 1)]);
  }
  // Same page under another parent (personal info: /adminNew/personalBasic ↔ /admin/setting/personalBasic).
  if (leaf) {
    const walk = (prefix: string[], nodes: readonly RouteNode[]) => {
      for (const n of nodes) {
        if (n.path === leaf.path && n.titleKey === leaf.titleKey) out.push([...prefix, n.path]);
        if (n.children) walk([...prefix, n.path], n.children);
      }
    };
    walk([], to.children);
  }
  return out;
}

/**
 * The page of the other edition equivalent to `pathname` that the account may open, else the
 * other edition's landing page it may open; undefined when the area has no other edition or the
 * account may open nothing there.
 */
export function editionSwitchPath(pathname: string, access: Access): string | undefined {
  const path = normalizePath(pathname);
  const from = areaOfPath(path);
  if (!from?.otherEdition) return undefined;
  const to = areaById(from.otherEdition);
  if (!access.canOpenArea(to)) return undefined;
  const match = matchRoute(path);
  const segs = path.split('/').slice(2);
  const leaf = match && !match.subPage ? match.chain[match.chain.length - 1] : undefined;
  const tail = match?.subPage ? segs.slice(match.chain.length) : [];
  const head = segs.slice(0, segs.length - tail.length);
  const cands = candidates(from, to, head, leaf);
  // A tab of a tabs page (classic admin firmware) without a page of its own there: the tabs page.
  const parent = match && !match.subPage ? match.chain[match.chain.length - 2] : undefined;
  if (parent?.layout === 'tabs') cands.push(...candidates(from, to, head.slice(0, -1), parent));
  for (const cand of cands) {
    const target = [to.base, ...cand, ...tail].join('/');
    const m = matchRoute(target);
    if (!m || !!m.subPage !== !!match?.subPage || !canOpenChain(access, m.chain)) continue;
    if (m.chain.length === 0) break; // the area root: its landing page below
    return m.subPage ? target : openTarget(to, m.chain, access) ?? target;
  }
  return landingPath(to, access);
}

/** The edition switch for a session (the header button): same as `editionSwitchPath`, with the session's access. */
export function editionSwitchFor(
  pathname: string,
  session: Pick<Session, 'role' | 'permissions'> | undefined,
): string | undefined {
  return session ? editionSwitchPath(pathname, accessFor(session)) : undefined;
}
