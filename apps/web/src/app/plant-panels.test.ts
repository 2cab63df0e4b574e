import { describe, expect, it } from 'vitest';
import { accessFor } from './access';
import { PLANT_PANELS } from './plant-panels';

const shown = (a: ReturnType<typeof accessFor>) => PLANT_PANELS.filter((p) => p.visible(a)).map((p) => p.key);

describe('plant page panels of issue 11', () => {
  it('owners and viewers see the plant alarm card; a sub-administrator only with the alarm module', () => {
    expect(shown(accessFor({ role: 0 }))).toEqual(['alarms']);
    expect(shown(accessFor({ role: 5 }))).toEqual(['alarms']);
    expect(shown(accessFor({ role: 2, permissions: { modules: ['device_manag'], firstPages: [], secondPages: [], buttons: [] } }))).toEqual([]);
    expect(shown(accessFor({ role: 2, permissions: { modules: ['device_manag', 'alarm_manag'], firstPages: [], secondPages: [], buttons: [] } }))).toEqual(['alarms']);
  });
  it('every panel loads its own module', async () => {
    for (const p of PLANT_PANELS) expect(typeof (await p.load()).default).toBe('function');
  }, 60_000);
});
