import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, catalogue, type ActionDef } from './index.js';

/** Actions that change state (sign-ins issue sessions, updateToken/logout revoke them, …). */
const MUTATING = [
  'auth',
  'authSource',
  'authByRememberToken',
  'updateToken',
  'logout',
  'updatePassword',
  'focusDevice',
  'unfocusDevice',
];

describe('action catalogue: mutates', () => {
  it('every action declares mutates as a boolean', () => {
    for (const name of ACTION_NAMES) {
      const def = catalogue[name] as ActionDef;
      expect(typeof def.mutates, name).toBe('boolean');
    }
  });

  it('classifies the state-changing actions as mutating and nothing else', () => {
    const mutating = ACTION_NAMES.filter((n) => (catalogue[n] as ActionDef).mutates).sort();
    expect(mutating).toEqual([...MUTATING].sort());
  });

  it('every sign-in action mutates (it issues a session)', () => {
    for (const name of ACTION_NAMES) {
      const def = catalogue[name] as ActionDef;
      if (def.access.auth === 'login') expect(def.mutates, name).toBe(true);
    }
  });

  it('upload rules, where declared, are well formed', () => {
    for (const name of ACTION_NAMES) {
      const def = catalogue[name] as ActionDef;
      if (!def.upload) continue;
      expect(def.upload.maxBytes).toBeGreaterThan(0);
      for (const ext of def.upload.extensions) expect(ext).toMatch(/^\.[a-z0-9]+$/);
    }
  });
});
