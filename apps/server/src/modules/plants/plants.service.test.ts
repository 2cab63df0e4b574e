import { ApiError } from '@sunwatch/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { Caller } from '../../context.js';
import type { PlantRow } from './plants.repository.js';
import { PlantsService, type PlantsServiceDeps } from './plants.service.js';

/** Unit tests of plant rules with fake repositories (no database). */

const caller: Caller = {
  accountId: 7,
  usr: 'owner',
  role: 0,
  path: '/1/7/',
  status: 0,
  adminOf: null,
  permissions: null,
  sessionId: 1,
};

const plant = (over: Partial<PlantRow> = {}): PlantRow =>
  ({ id: 42, owner_id: 7, tz_offset: 3600, energy_offset: 100, install_at: null, ...over }) as PlantRow;

function service(over: Partial<PlantsServiceDeps> = {}) {
  const deps: PlantsServiceDeps = {
    access: {
      scopeOf: vi.fn(() => Promise.resolve({ kind: 'all' as const, accountId: 7 })),
      requireAccess: vi.fn(() => Promise.resolve(new Set())) as unknown as PlantsServiceDeps['access']['requireAccess'],
    },
    plants: {
      list: vi.fn(),
      all: vi.fn(),
      findById: vi.fn((id: number) => Promise.resolve(plant({ id }))),
      counts: vi.fn(),
      dataloggersOf: vi.fn(),
    },
    devices: { ofPlants: vi.fn(), latest: vi.fn(), samplesOf: vi.fn() },
    energyRepo: { series: vi.fn(() => Promise.resolve(new Map())), lifetimeTotals: vi.fn() },
    energy: { periodByDevice: vi.fn(), todayByDevice: vi.fn() },
    now: () => Date.UTC(2026, 2, 5, 12),
    ...over,
  };
  return { svc: new PlantsService(deps), deps };
}

describe('PlantsService (fake repositories)', () => {
  it('checks access to the plant id before reading it', async () => {
    const { svc, deps } = service();
    await svc.info(caller, 42);
    expect(deps.access.requireAccess).toHaveBeenCalledWith(
      expect.objectContaining({ caller, permission: 'plant.read', ids: [42] }),
    );
    expect(deps.plants.findById).toHaveBeenCalledWith(42);
  });

  it('answers a plant the access module refuses with err 260 and never reads it', async () => {
    const { svc, deps } = service({
      access: {
        scopeOf: vi.fn(),
        requireAccess: vi.fn(() => Promise.reject(new ApiError(260))),
      },
    });
    await expect(svc.info(caller, 99)).rejects.toMatchObject({ code: 260 });
    expect(deps.plants.findById).not.toHaveBeenCalled();
  });

  it("total energy = the plant's energy offset + the lifetime counters of its source devices", async () => {
    const lifetimeTotals = vi.fn(() =>
      Promise.resolve(
        new Map([
          [1, 10.5],
          [2, 3],
        ]),
      ),
    );
    const { svc } = service({ energyRepo: { series: vi.fn(), lifetimeTotals } });
    expect(await svc.energyOf(caller, 42, 'total')).toEqual({ energy: '113.5000' });
    expect(lifetimeTotals).toHaveBeenCalledWith('generated', { projectIds: [42] });
  });

  it('a month outside 1..12 is err 6 on date', async () => {
    const { svc } = service();
    await expect(svc.monthPerDay(caller, 42, '2026-13')).rejects.toMatchObject({ code: 6, detail: 'date' });
  });

  it('per-year totals run from the install year to the current year of the injected clock', async () => {
    const series = vi.fn(() => Promise.resolve(new Map([[2025, 7]])));
    const { svc } = service({
      energyRepo: { series, lifetimeTotals: vi.fn() },
      plants: {
        list: vi.fn(),
        all: vi.fn(),
        findById: vi.fn(() => Promise.resolve(plant({ install_at: Date.UTC(2024, 5, 1) }))),
        counts: vi.fn(),
        dataloggersOf: vi.fn(),
      },
    });
    const { peryear } = await svc.totalPerYear(caller, 42);
    expect(peryear.map((p) => p.ts.slice(0, 4))).toEqual(['2024', '2025', '2026']);
    expect(peryear.map((p) => p.val)).toEqual(['0.0000', '7.0000', '0.0000']);
    expect(series).toHaveBeenCalledWith('generated', { projectIds: [42] }, 0, 20260305, 'year');
  });
});
