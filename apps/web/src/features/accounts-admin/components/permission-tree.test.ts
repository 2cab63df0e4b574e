import { describe, expect, it } from 'vitest';
import { allPermissionNames } from '@sunwatch/protocol';
import { resources } from '../../../i18n/resources';
import { PERMISSION_NODES, checkedLeaves, grantedFunctions, type PermNode } from './permission-tree';

function keys(nodes: PermNode[]): string[] {
  return nodes.flatMap((n) => [n.key, ...keys(n.children ?? [])]);
}

describe('permission tree', () => {
  it('holds every function point of PERMISSION_TREE once, each with a label in every language', () => {
    const inTree = keys(PERMISSION_NODES).filter((k) => !k.endsWith(':buttons'));
    expect(inTree.sort()).toEqual(allPermissionNames().sort());
    for (const [locale, ns] of Object.entries(resources)) {
      const perm = (ns.accounts as { perm?: Record<string, string> } | undefined)?.perm ?? {};
      for (const name of inTree) expect(perm[name], `${locale} ${name}`).toBeTruthy();
    }
  });

  it('feeds the tree only leaves and gives back parents of what is checked', () => {
    expect(checkedLeaves(['account_manag', 'account_list', 'account_detail', 'account_add'])).toEqual([
      'account_detail',
      'account_add',
    ]);
    expect(
      grantedFunctions(
        ['account_detail', 'account_add'],
        ['account_manag', 'account_list', 'account_manag:buttons'],
      ).sort(),
    ).toEqual(['account_add', 'account_detail', 'account_list', 'account_manag'].sort());
  });
});
