import type { Caller } from '../../context.js';
import type { Clock } from '../../shared/clock.js';
import type { DeviceResolver } from './device-resolver.js';
import type { DeviceKey, DevicesRepository } from './devices.repository.js';

export interface DeviceFollowServiceDeps {
  resolver: Pick<DeviceResolver, 'resolve'>;
  devices: Pick<DevicesRepository, 'follow' | 'unfollow'>;
  now: Clock;
}

/** Following devices (focusDevice / unfocusDevice); the web's "followed only" list filter reads it. */
export class DeviceFollowService {
  constructor(private readonly deps: DeviceFollowServiceDeps) {}

  async follow(caller: Caller, key: DeviceKey, on: boolean): Promise<undefined> {
    const row = await this.deps.resolver.resolve(caller, key);
    if (on) await this.deps.devices.follow(caller.accountId, row.id, this.deps.now());
    else await this.deps.devices.unfollow(caller.accountId, row.id);
    return undefined;
  }
}
