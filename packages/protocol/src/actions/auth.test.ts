import { describe, expect, it } from 'vitest';
import { ACTION_AUTH, actionAuth } from './auth.js';
import { ACTION_NAMES, catalogue } from './index.js';

describe('ACTION_AUTH', () => {
  it('holds exactly the actions of the catalogue', () => {
    expect(Object.keys(ACTION_AUTH).sort()).toEqual([...ACTION_NAMES].sort());
  });

  it("gives every action its catalogue's auth kind", () => {
    for (const name of ACTION_NAMES) expect(actionAuth(name), name).toBe(catalogue[name].access.auth);
  });
});
