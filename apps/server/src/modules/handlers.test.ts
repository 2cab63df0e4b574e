import { ACTION_NAMES, catalogue } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { handlers } from './index.js';

describe('action registry', () => {
  it('has a handler for every action declared in the catalogue', () => {
    const missing = ACTION_NAMES.filter((name) => typeof handlers[name] !== 'function');
    expect(missing, `actions without a handler: ${missing.join(', ')}`).toEqual([]);
  });

  it('registers no handler for an action the catalogue does not declare', () => {
    const extra = Object.keys(handlers).filter((name) => !Object.prototype.hasOwnProperty.call(catalogue, name));
    expect(extra).toEqual([]);
  });
});
