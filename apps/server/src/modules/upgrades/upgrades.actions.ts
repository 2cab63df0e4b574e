import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 13 upgrade actions (protocol actions/upgrades.ts); the service is `ctx.services.upgrades`. */
export const upgradeHandlers: HandlerMap = {
  firmwareUpgradeCollector: ({ params, ...i }, ctx) => ctx.services.upgrades.upgradeCollector(callerOf(i), params),
  firmwareUpgradeDevice: ({ params, ...i }, ctx) => ctx.services.upgrades.upgradeDevice(callerOf(i), params),
  queryCollectorFirmwareUpgradeProgress: ({ params, ...i }, ctx) => ctx.services.upgrades.progress(callerOf(i), params),
  queryCollectorFirmwareUpgradeStatus: ({ params, ...i }, ctx) => ctx.services.upgrades.status(callerOf(i), params),
  queryCollectorFirmwareUpgradeLastRecord: ({ params, ...i }, ctx) =>
    ctx.services.upgrades.lastRecord(callerOf(i), params),
  cancelCollectorFirmwareUpgrade: ({ params, ...i }, ctx) => ctx.services.upgrades.cancel(callerOf(i), params),
  firmwareUpgradeBatch: ({ params, ...i }, ctx) => ctx.services.upgrades.batch(callerOf(i), params),
  queryFirmwareUpgrades: ({ params, ...i }, ctx) => ctx.services.upgrades.tasks(callerOf(i), params, i.call.locale),
  queryUpgradeableFirmware: ({ params, ...i }, ctx) => ctx.services.upgrades.upgradeable(callerOf(i), params),
  queryFirmwareUpgradeBatch: ({ params, ...i }, ctx) => ctx.services.upgrades.batchProgress(callerOf(i), params),
};
