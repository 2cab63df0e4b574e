import { describe, expect, it } from 'vitest';
import { getDefinition } from '@sunwatch/protocol';
import { flowDirection, flowModel, flowNodesOf, flowSpeed, itemKw, nodeCaption, presentNodes } from './energy-flow';

describe('energy-flow arrow direction', () => {
  it('follows the vendor status codes', () => {
    expect(flowDirection('pv', 1, undefined)).toBe('in');
    expect(flowDirection('battery', 1, undefined)).toBe('in'); // discharging
    expect(flowDirection('battery', -1, undefined)).toBe('out'); // charging
    expect(flowDirection('grid', 1, undefined)).toBe('in'); // import
    expect(flowDirection('grid', -1, undefined)).toBe('out'); // export
    expect(flowDirection('load', -1, undefined)).toBe('out'); // consuming
    expect(flowDirection('grid', 0, 3)).toBe('none'); // status 0 = idle wins
  });
  it('falls back to the sign of the power, with a deadband', () => {
    expect(flowDirection('battery', undefined, 1.2)).toBe('in');
    expect(flowDirection('battery', undefined, -1.2)).toBe('out');
    expect(flowDirection('grid', undefined, -0.3)).toBe('out');
    expect(flowDirection('pv', undefined, 0.0001)).toBe('none');
    expect(flowDirection('load', undefined, 0.8)).toBe('out');
    expect(flowDirection('pv', undefined, undefined)).toBe('none');
  });
  it('reads a webQueryDeviceEnergyFlowEs answer', () => {
    const m = flowModel({
      brand: 2,
      status: 0,
      date: '2026-11-21 12:00:00',
      pv_status: [{ par: 'pv_output_power', val: '3.2100', unit: 'kW', status: 1 }],
      bt_status: [
        { par: 'bt_battery_capacity', val: '76.0000', unit: '%', status: -1 },
        { par: 'battery_active_power', val: '0', status: 0 },
      ],
      gd_status: [{ par: 'grid_active_power', val: '0.4000', unit: 'kW', status: -1 }],
      bc_status: [{ par: 'load_active_power', val: '1800', unit: 'W', status: -1 }],
      ol_status: [{ par: 'gen', val: '0', status: 0 }],
    });
    expect(m.soc).toBe(76);
    expect(m.nodes.pv).toMatchObject({ present: true, powerKw: 3.21, direction: 'in' });
    expect(m.nodes.battery).toMatchObject({ present: true, powerKw: undefined, direction: 'out' });
    expect(m.nodes.grid).toMatchObject({ present: true, powerKw: 0.4, direction: 'out' });
    expect(m.nodes.load).toMatchObject({ present: true, powerKw: 1.8, direction: 'out' });
    expect(m.nodes.generator).toMatchObject({ present: false, direction: 'none' });
  });
  it('converts units and speeds up with power', () => {
    expect(itemKw({ par: 'p', val: '1500', unit: 'W', status: 0 })).toBe(1.5);
    expect(itemKw({ par: 'p', val: '50', unit: '%', status: 0 })).toBeUndefined();
    expect(flowSpeed(10)).toBeLessThan(flowSpeed(0.1));
  });

  it("a hybrid's grid with mains present but no grid power: no direction, \"connected\" (not \"-- · Importing\")", () => {
    // the 2341 demo answer: grid placeholder without unit, status 1 from mains presence
    const m = flowModel({
      pv_status: [{ par: 'pv_output_power', val: '0.0000', unit: 'kW', status: 0 }],
      bt_status: [
        { par: 'bt_battery_capacity', val: '10.0000', unit: '%', status: 0 },
        { par: 'battery_active_power', val: '0', status: 0 },
      ],
      gd_status: [{ par: 'grid_active_power', val: '0', status: 1 }],
      bc_status: [{ par: 'load_active_power', val: '0.8510', unit: 'kW', status: -1 }],
      ol_status: [{ par: 'oil_output_power', val: '0', status: 0 }],
    });
    expect(m.nodes.grid).toMatchObject({ present: true, powerKw: undefined, direction: 'none', connected: true });
    const caption = (id: 'grid' | 'load' | 'pv') =>
      nodeCaption(m.nodes[id], (kw) => `${kw} kW`, (node, dir) => `${node}:${dir}`, 'Connected');
    expect(caption('grid')).toBe('Connected');
    expect(caption('load')).toBe('0.851 kW · load:out');
    expect(caption('pv')).toBe('0 kW');
    expect(presentNodes(m)).toEqual(['pv', 'grid', 'battery', 'load']);
  });

  it('draws only the nodes a micro-inverter has: PV and grid', () => {
    const m = flowModel({
      bt_status: [],
      pv_status: [{ par: 'pv_output_power', val: '0.0352', unit: 'kW', status: 1 }],
      gd_status: [{ par: 'grid_active_power', val: '0.0338', unit: 'kW', status: -1 }],
      bc_status: [],
      ol_status: [],
    });
    expect(presentNodes(m)).toEqual(['pv', 'grid']);
    expect(presentNodes(m, flowNodesOf(getDefinition(5122)!))).toEqual(['pv', 'grid']);
    expect(nodeCaption(m.nodes.grid, (kw) => `${kw} kW`, (n, d) => `${n}:${d}`, 'Connected')).toBe('0.0338 kW · grid:out');
  });

  it('a measured direction without a value shows the state alone', () => {
    const n = { id: 'battery' as const, present: true, direction: 'out' as const };
    expect(nodeCaption(n, (kw) => `${kw} kW`, (node, dir) => `${node}:${dir}`, 'Connected')).toBe('battery:out');
  });

  it("the devcode decides the nodes: a hybrid's grid stays drawn during a mains loss, its placeholder generator never", () => {
    expect(flowNodesOf(getDefinition(2341)!)).toEqual(['pv', 'grid', 'battery', 'load']);
    expect(flowNodesOf(getDefinition(5122)!)).toEqual(['pv', 'grid']);
    expect(flowNodesOf(getDefinition(5123)!)).toEqual(['battery']);
    expect(flowNodesOf(getDefinition(5124)!)).toEqual(['grid']);
    const mainsLost = flowModel({
      pv_status: [{ par: 'pv_output_power', val: '0.0000', unit: 'kW', status: 0 }],
      gd_status: [{ par: 'grid_active_power', val: '0', status: 0 }],
      ol_status: [{ par: 'oil_output_power', val: '0', status: 0 }],
    });
    expect(mainsLost.nodes.grid.present).toBe(false);
    expect(presentNodes(mainsLost, flowNodesOf(getDefinition(2341)!))).toContain('grid');
    expect(nodeCaption(mainsLost.nodes.grid, (kw) => `${kw} kW`, (n, d) => `${n}:${d}`, 'Connected')).toBe('--');
  });
});
