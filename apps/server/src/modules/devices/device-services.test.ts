import type { DeviceDefinition } from '@sunwatch/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { Caller } from '../../context.js';
import { DeviceFollowService } from './device-follow.service.js';
import { DeviceReadsService } from './device-reads.service.js';
import { DeviceResolver } from './device-resolver.js';
import { OFFLINE } from './device-sample.js';
import type { DeviceRow } from './devices.repository.js';

/** Unit tests of device rules with fake repositories (no database). */

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
const scope = { kind: 'tree' as const, accountId: 7, roots: ['/1/7/'], adminIds: [] };
const row = (over: Partial<DeviceRow> = {}): DeviceRow =>
  ({ id: 5, pn: 'PN1', sn: 'SN1', devcode: 512, devaddr: 1, status: 0, p_tz: null, dl_tz: 0, ...over }) as DeviceRow;

describe('DeviceResolver (fake repository)', () => {
  it('looks the tuple up within the caller scope of the access module', async () => {
    const find = vi.fn(() => Promise.resolve(row()));
    const r = new DeviceResolver({ scopeOf: () => Promise.resolve(scope) }, { find, findWithLatest: vi.fn() });
    expect((await r.resolve(caller, { sn: 'SN1' })).id).toBe(5);
    expect(find).toHaveBeenCalledWith(scope, { sn: 'SN1' });
  });

  it('answers err 7 without sn or pn, err 258 for a device not in scope (like a missing one)', async () => {
    const r = new DeviceResolver(
      { scopeOf: () => Promise.resolve(scope) },
      { find: () => Promise.resolve(undefined), findWithLatest: vi.fn() },
    );
    await expect(r.resolve(caller, {})).rejects.toMatchObject({ code: 7, detail: 'sn' });
    await expect(r.resolve(caller, { pn: 'PN1' })).rejects.toMatchObject({ code: 7, detail: 'devaddr' });
    await expect(r.resolve(caller, { sn: 'OTHER' })).rejects.toMatchObject({ code: 258 });
  });

  it('fails a batch of more than 256 devices with err 13 before any lookup', async () => {
    const find = vi.fn();
    const r = new DeviceResolver({ scopeOf: () => Promise.resolve(scope) }, { find, findWithLatest: vi.fn() });
    const device = Array.from({ length: 257 }, (_, i) => ({ sn: `S${i}` }));
    await expect(r.batch(caller, { device })).rejects.toMatchObject({ code: 13, detail: 'device' });
    expect(find).not.toHaveBeenCalled();
  });
});

describe('DeviceFollowService (fake repository)', () => {
  it('follows with the instant of the injected clock and unfollows', async () => {
    let followed: { account_id: number; device_id: number; created_at: number } | undefined;
    const follow = vi.fn((account_id: number, device_id: number, created_at: number) => {
      followed = { account_id, device_id, created_at };
      return Promise.resolve(true);
    });
    const unfollow = vi.fn(() => {
      followed = undefined;
      return Promise.resolve(true);
    });
    const record = vi.fn(() => Promise.resolve());
    const svc = new DeviceFollowService({
      resolver: { resolve: () => Promise.resolve(row()) },
      devices: { follow, unfollow, findFollow: () => Promise.resolve(followed) },
      audit: { record },
      now: () => 1_700_000_000_000,
    });
    await svc.follow(caller, { sn: 'SN1' }, true);
    expect(follow).toHaveBeenCalledWith(7, 5, 1_700_000_000_000);
    await svc.follow(caller, { sn: 'SN1' }, true); // already followed: no write, no audit
    expect(follow).toHaveBeenCalledTimes(1);
    await svc.follow(caller, { sn: 'SN1' }, false);
    expect(unfollow).toHaveBeenCalledWith(7, 5);
    const after = { account_id: 7, device_id: 5, created_at: 1_700_000_000_000 };
    expect(record.mock.calls).toEqual([
      [{ entity: 'device_follow', entityId: '7:5', before: null, after }],
      [{ entity: 'device_follow', entityId: '7:5', before: after, after: null }],
    ]);
  });
});

describe('DeviceReadsService (fake resolver)', () => {
  it('real-time last data of an offline device is err 12 (no current values)', async () => {
    const svc = new DeviceReadsService({
      resolver: {
        resolve: vi.fn(),
        resolveLive: vi.fn(),
        requireLive: () =>
          Promise.resolve({
            row: row({ status: OFFLINE }),
            def: {} as DeviceDefinition,
            sample: { values: {}, labels: {} },
            ts: 0,
          }),
      },
      now: () => 0,
    });
    await expect(svc.realLastData(caller, { sn: 'SN1' })).rejects.toMatchObject({ code: 12 });
  });
});
