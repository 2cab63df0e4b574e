import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DeviceResolver } from './device-resolver.js';
import type { DeviceKey, DevicesRepository } from './devices.repository.js';

export interface DeviceFollowServiceDeps {
  resolver: Pick<DeviceResolver, 'resolve'>;
  devices: Pick<DevicesRepository, 'follow' | 'unfollow' | 'findFollow'>;
  audit: Pick<AuditService, 'record'>;
  now: Clock;
}

/** Following devices (focusDevice / unfocusDevice); the web's "followed only" list filter reads it. */
export class DeviceFollowService {
  constructor(private readonly deps: DeviceFollowServiceDeps) {}

  async follow(caller: Caller, key: DeviceKey, on: boolean): Promise<undefined> {
    const row = await this.deps.resolver.resolve(caller, key);
    const { devices, audit } = this.deps;
    const before = (await devices.findFollow(caller.accountId, row.id)) ?? null;
    // Audited only when the row changed (following a followed device, or losing a race to a
    // concurrent call, changes nothing).
    const entityId = `${caller.accountId}:${row.id}`;
    if (on && !before) {
      const now = this.deps.now();
      if (await devices.follow(caller.accountId, row.id, now)) {
        const after = { account_id: caller.accountId, device_id: row.id, created_at: now };
        await audit.record({ entity: 'device_follow', entityId, before: null, after });
      }
    } else if (!on && before) {
      if (await devices.unfollow(caller.accountId, row.id)) {
        await audit.record({ entity: 'device_follow', entityId, before, after: null });
      }
    }
    return undefined;
  }
}
