import { catalogue, type ActionDef } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { BUTTON_CALLERS, GATING_BUTTONS } from './fixture.js';
import { expectedOutcome, holds, holdsButton, inAccountScope, manages, refVisible } from './model.js';
import { normaliseNewIds, snapshotDiff } from './snapshot.js';

/** The matrix's own rules, checked on their own: a wrong model would make the matrix prove nothing. */

const def = (name: string): ActionDef => (catalogue as Record<string, ActionDef>)[name]!;

describe('isolation matrix model', () => {
  it("derives outcomes in the dispatcher's order: token, role, module, button, viewer, reference", () => {
    const plantInfo = def('queryPlantInfo');
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'ANON', 'A1')).toMatchObject({ ok: false, code: 10 });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'DISABLED', 'A1')).toMatchObject({ ok: false, code: 10 });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'SA_account_manag', 'A1')).toMatchObject({
      ok: false,
      code: 11,
    });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'SA_device_manag', 'A1')).toMatchObject({ ok: true });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'O2', 'A1')).toMatchObject({ ok: false, code: 260 });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'O3', 'A1')).toMatchObject({ ok: false, code: 260 });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'V1', 'A1')).toMatchObject({ ok: true });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'V1', 'A1X')).toMatchObject({ ok: false, code: 260 });
    expect(expectedOutcome(plantInfo, { kind: 'plant' }, 'OP', 'missing')).toMatchObject({ ok: false, code: 260 });
    // Role list before the reference; the viewer never writes unless the action is personal.
    expect(expectedOutcome(def('addDist'), { kind: 'none' }, 'O1', '-')).toMatchObject({ ok: false, code: 11 });
    expect(expectedOutcome(def('focusDevice'), { kind: 'device' }, 'V1', 'A1')).toMatchObject({ ok: false, code: 11 });
    expect(expectedOutcome(def('focusDevice'), { kind: 'device', personal: 'own view' }, 'V1', 'A1')).toMatchObject({
      ok: true,
    });
  });

  it('computes reach from the tree: scope, write scope, principals, groups and roles', () => {
    expect(inAccountScope('G1', 'O1')).toBe(true); // through its member D1
    expect(manages('G1', 'O1')).toBe(false); // a group account changes only its own subtree
    expect(manages('SA_account_manag', 'O1')).toBe(true);
    expect(manages('SA_account_manag', 'D1')).toBe(false); // its principal
    expect(manages('SA_device_manag', 'O1')).toBe(false); // lacks account_manag
    expect(manages('D1', 'D1')).toBe(false);
    expect(manages('D2', 'O1')).toBe(false);
    expect(manages('OP', 'O3')).toBe(true);
    expect(refVisible('account', 'self', 'V1')).toBe(true);
    expect(refVisible('account', 'O1', 'V1')).toBe(false);
    expect(refVisible('account', 'V1', 'O1')).toBe(true);
    expect(refVisible('group', 'GA', 'SA_account_manag')).toBe(true); // works on D1's groups
    expect(refVisible('group', 'GA', 'M1')).toBe(false); // groups belong to their administrator
    expect(refVisible('role', 'RB', 'D1')).toBe(false);
  });

  it("reads a sub-administrator's function points from its role: a module is not all its buttons", () => {
    expect(GATING_BUTTONS).toContain('account_add');
    expect(BUTTON_CALLERS).toHaveLength(GATING_BUTTONS.length * 2);
    expect(holds('SA_without:account_add', 'account_manag')).toBe(true);
    expect(holdsButton('SA_without:account_add', 'account_add')).toBe(false);
    expect(holdsButton('SA_without:account_add', 'account_edit')).toBe(true);
    expect(holdsButton('SA_with:account_add', 'account_add')).toBe(true);
    expect(holdsButton('SA_with:account_add', 'account_edit')).toBe(false);
    expect(holds('SA_with:account_add', 'device_manag')).toBe(false);
    expect(holdsButton('SA_account_manag', 'account_delete')).toBe(true);
    expect(holdsButton('SA_none', 'account_delete')).toBe(false);
    expect(holdsButton('D1', 'account_delete')).toBe(true); // not a sub-administrator
    expect(expectedOutcome(def('delAccount'), { kind: 'emptyOwner' }, 'SA_without:account_delete', 'E1')).toMatchObject(
      {
        ok: false,
        code: 11,
      },
    );
    expect(expectedOutcome(def('delAccount'), { kind: 'emptyOwner' }, 'SA_with:account_delete', 'E1')).toMatchObject({
      ok: true,
    });
  });

  it('compares ownership diffs whatever ids the rows created by a call got', () => {
    const before = new Map([['accounts:3', '["d1","2","1","/1/2/3/"]']]);
    const a = snapshotDiff(before, new Map([...before, ['accounts:40', '["x","0","3","/1/2/3/40/"]']]));
    const b = snapshotDiff(before, new Map([...before, ['accounts:41', '["x","0","3","/1/2/3/41/"]']]));
    expect(a).not.toEqual(b);
    expect(normaliseNewIds(a)).toEqual(normaliseNewIds(b));
    const c = snapshotDiff(before, new Map([...before, ['accounts:41', '["x","0","9","/9/41/"]']]));
    expect(normaliseNewIds(c)).not.toEqual(normaliseNewIds(a));
  });

  it('tells created rows of different tables apart when their ids are the same number (PostgreSQL sequences)', () => {
    const before = new Map<string, string>();
    // the same call twice: a plant and its device; the second time the plant's id equals the device's
    const a = snapshotDiff(before, new Map([['projects:9', '["9","1"]'], ['devices:8', '["8","2","9","P1"]']]));
    const b = snapshotDiff(before, new Map([['projects:8', '["8","1"]'], ['devices:8', '["8","2","8","P1"]']]));
    expect(normaliseNewIds(a)).toEqual(normaliseNewIds(b));
    const wrong = snapshotDiff(before, new Map([['projects:8', '["8","1"]'], ['devices:8', '["8","2","7","P1"]']]));
    expect(normaliseNewIds(wrong)).not.toEqual(normaliseNewIds(a));
  });
});
