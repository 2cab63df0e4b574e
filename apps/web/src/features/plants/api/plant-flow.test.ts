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
});
