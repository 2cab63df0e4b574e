import { describe, expect, it } from 'vitest';
import { plantFlow } from './plant-flow';

describe('plantFlow', () => {
  it('a hybrid plant with a battery: the battery closes the balance', () => {
    // 3 kW produced, 1 kW exported, 0.5 kW used: 1.5 kW go into the battery
    const f = plantFlow({ power: '3', load: '0.5', grid: '-1', soc: '64' });
    expect(f.nodes.pv).toMatchObject({ kw: 3, direction: 'in' });
    expect(f.nodes.grid).toMatchObject({ present: true, kw: 1, direction: 'out' });
    expect(f.nodes.load).toMatchObject({ present: true, kw: 0.5, direction: 'out' });
    expect(f.nodes.battery).toMatchObject({ present: true, kw: 1.5, direction: 'out' });
    expect(f.soc).toBe(64);
  });

  it('at night the battery discharges into the load and the grid imports the rest', () => {
    const f = plantFlow({ power: '0', load: '2', grid: '0.5', soc: '40' });
    expect(f.nodes.pv.direction).toBe('none');
    expect(f.nodes.grid.direction).toBe('in');
    expect(f.nodes.battery).toMatchObject({ kw: 1.5, direction: 'in' });
  });

  it('a grid-tie plant without a meter has no load, grid or battery', () => {
    const f = plantFlow({ power: '4.2', load: '--', grid: '--', soc: '--' });
    expect(f.nodes.pv.kw).toBe(4.2);
    expect(f.nodes.load.present).toBe(false);
    expect(f.nodes.grid.present).toBe(false);
    expect(f.nodes.battery.present).toBe(false);
  });

  it('a plant with a meter and no battery: grid and load, no battery', () => {
    const f = plantFlow({ power: '2', load: '2.4', grid: '0.4' });
    expect(f.nodes.battery.present).toBe(false);
    expect(f.nodes.grid).toMatchObject({ kw: 0.4, direction: 'in' });
  });

  it('the battery power reported by the plant shows although the grid exchange is not measured', () => {
    // the demo hybrid: no grid power field, its battery charging at 1.2 kW
    const charging = plantFlow({ power: '2', load: '0.8', grid: '--', battery: '-1.2', soc: '55' });
    expect(charging.nodes.grid.present).toBe(false);
    expect(charging.nodes.battery).toMatchObject({ present: true, kw: 1.2, direction: 'out' });
    const discharging = plantFlow({ power: '0', load: '--', grid: '--', battery: '0.7', soc: '--' });
    expect(discharging.nodes.battery).toMatchObject({ present: true, kw: 0.7, direction: 'in' });
    // the reported power wins over the balance's remainder
    expect(plantFlow({ power: '3', load: '0.5', grid: '-1', battery: '-1.4', soc: '64' }).nodes.battery.kw).toBe(1.4);
    expect(plantFlow({ power: '1', load: '--', grid: '--', battery: '0.0001', soc: '50' }).nodes.battery).toMatchObject({ kw: 0, direction: 'none' });
    // no battery power and no balance: the SOC alone, power unknown
    expect(plantFlow({ power: '1', load: '0.4', grid: '--', battery: '--', soc: '50' }).nodes.battery).toMatchObject({ present: true, kw: undefined });
  });
});
