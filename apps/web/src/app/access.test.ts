import { describe, expect, it } from 'vitest';
import { accessFor, openableDefaultChild } from './access';
import { areaById, type RouteNode } from './routes';

const node = (access: RouteNode['access']): RouteNode => ({ path: 'x', titleKey: 'x', access });

describe('accessFor', () => {
  it('a writes rule is closed to read-only accounts only', () => {
    const w = node({ writes: true });
    expect(accessFor({ role: 5 }).canSee(w)).toBe(false);
    expect(accessFor({ role: 5 }).readOnly).toBe(true);
    for (const role of [0, 1, 2, 3, 15] as const) {
      expect(accessFor({ role }).canSee(w), String(role)).toBe(true);
      expect(accessFor({ role }).readOnly).toBe(false);
    }
  });

  it('a roles rule admits only its roles, and nothing without a session', () => {
    const owner = node({ roles: [0] });
    expect(accessFor({ role: 0 }).canSee(owner)).toBe(true);
    expect(accessFor({ role: 5 }).canSee(owner)).toBe(false);
    expect(accessFor(undefined).canSee(owner)).toBe(false);
    expect(accessFor(undefined).canSee(node(undefined))).toBe(true);
  });

  it('module, roles and writes combine', () => {
    const rule = node({ module: 'device_manag', roles: [1, 2], writes: true });
    const lists = (modules: string[]) => ({ modules, firstPages: [], secondPages: [], buttons: [] });
    expect(accessFor({ role: 2, permissions: lists(['device_manag']) }).canSee(rule)).toBe(true);
    expect(accessFor({ role: 2, permissions: lists(['alarm_manag']) }).canSee(rule)).toBe(false);
    expect(accessFor({ role: 1 }).canSee(rule)).toBe(true);
    expect(accessFor({ role: 3 }).canSee(rule)).toBe(false);
  });

  it('openableDefaultChild falls back to the first child the account may open', () => {
    const setting = areaById('generalNew').children.find((n) => n.path === 'setting')!;
    expect(openableDefaultChild(setting, accessFor({ role: 0 }))?.path).toBe('datalogger');
    expect(openableDefaultChild(setting, accessFor({ role: 5 }))?.path).toBe('alarmform');
    const home = areaById('operator').children[0]!;
    expect(openableDefaultChild(home, accessFor({ role: 15 }))).toBeUndefined();
  });
});
