import { describe, expect, it } from 'vitest';
import { readAllPlants } from './all-plants';

describe('readAllPlants', () => {
  it('reads page after page until the total is reached, keeping each timezone', async () => {
    const all = Array.from({ length: 73 }, (_, i) => ({ pid: i + 1, name: `P${i + 1}`, address: { timezone: 3600 * (i % 3) } }));
    const pages: number[] = [];
    const out = await readAllPlants(async (page, pagesize) => {
      pages.push(page);
      return { total: all.length, plant: all.slice(page * pagesize, (page + 1) * pagesize) };
    });
    expect(pages).toEqual([0, 1]);
    expect(out).toHaveLength(73);
    expect(out[72]).toEqual({ pid: 73, name: 'P73', timezone: 0 });
    expect(out[1]!.timezone).toBe(3600);
  });
});
