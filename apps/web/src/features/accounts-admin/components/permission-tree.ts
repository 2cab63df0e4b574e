/**
 * The function points of PERMISSION_TREE as a checkbox tree (module / first page / second page /
 * function button). A role stores every granted name, parents included; the tree is fed only the
 * leaves (antd checks a parent whose children are all checked) and gives back checked plus
 * half-checked names.
 */
import { PERMISSION_TREE } from '@sunwatch/protocol';

export interface PermNode {
  key: string;
  /** i18n key of its label. */
  labelKey: string;
  children?: PermNode[];
}

const node = (name: string, children?: PermNode[]): PermNode => ({
  key: name,
  labelKey: `accounts:perm.${name}`,
  ...(children && children.length ? { children } : {}),
});

export const PERMISSION_NODES: PermNode[] = PERMISSION_TREE.map((m) =>
  node(m.action, [
    ...m.first.map((f) =>
      node(
        f.action,
        (f.second ?? []).map((s) => node(s)),
      ),
    ),
    ...(m.buttons.length
      ? [{ key: `${m.action}:buttons`, labelKey: 'accounts:perm.buttons', children: m.buttons.map((b) => node(b)) }]
      : []),
  ]),
);

const LEAVES = new Set<string>();
(function collect(nodes: PermNode[]) {
  for (const n of nodes) {
    if (n.children) collect(n.children);
    else LEAVES.add(n.key);
  }
})(PERMISSION_NODES);

/** The tree's checked keys for a role's granted names: its leaves only. */
export function checkedLeaves(functions: readonly string[]): string[] {
  return functions.filter((f) => LEAVES.has(f));
}

/** The role's function names from the tree's checked and half-checked keys (grouping nodes dropped). */
export function grantedFunctions(checked: readonly string[], halfChecked: readonly string[]): string[] {
  return [...new Set([...checked, ...halfChecked])].filter((k) => !k.endsWith(':buttons'));
}
