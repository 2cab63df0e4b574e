import { describe, expect, it } from 'vitest';
import '../../../i18n';
import { addBlockedMessage, selectionMessage, unitsOf, type ChartField } from './param-selection';

const f = (id: string, unit: string): ChartField => ({ id, name: id, unit });
const fields = (...units: string[]) => units.map((u, i) => f(`p${i}`, u));

describe('parameter selection rule messages (rules namespace)', () => {
  it('asks for at least one parameter', () => {
    expect(selectionMessage([], 'display')).toBe('Please select at least one parameter');
  });
  it('accepts 1–7 for display and at most 4 for comparison', () => {
    expect(selectionMessage(fields('W'), 'display')).toBeUndefined();
    expect(selectionMessage(fields('W', 'W', 'W', 'V', 'V', 'V', 'V'), 'display')).toBeUndefined();
    expect(selectionMessage(fields('W', 'W', 'W', 'W', 'V', 'V', 'V', 'V'), 'display')).toBe(
      'You can display at most 7 parameters',
    );
    expect(selectionMessage(fields('W', 'W', 'V', 'V', 'V'), 'compare')).toBe('You can compare at most 4 parameters');
  });
  it('refuses a third unit', () => {
    expect(selectionMessage(fields('W', 'V', 'A'), 'display')).toBe(
      'The selected parameters cannot have more than 2 different units',
    );
    expect(addBlockedMessage(fields('W', 'V'), f('x', 'A'), 'display')).toMatch(/more than 2 different units/);
    expect(addBlockedMessage(fields('W', 'V'), f('x', 'V'), 'display')).toBeUndefined();
    expect(unitsOf(fields('W', 'V', 'W'))).toEqual(['W', 'V']);
  });
});
