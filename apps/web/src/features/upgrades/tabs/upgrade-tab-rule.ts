/**
 * When an owner sees the device detail's "upgrade" tab (issue 13, G6): only when something is
 * offered to that device (the default firmware or a suggested strategy, queryUpgradeableFirmware)
 * or an upgrade of it is running. Administrators always see it (they upgrade with any firmware of
 * their manufacturer). Once shown on a visit, the tab stays until the device changes, so it does
 * not vanish under the owner when the upgrade she took completes. docs/firmware/upgrades-web.md.
 */
import { useState } from 'react';
import type { UpgradeableRow } from '@sunwatch/protocol';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { useUpgradeOffers } from '../api/offers';
import { isRunning } from '../model/running';

/** The rows of queryUpgradeableFirmware({pn}) the tab reads (the same query: one request). */
export const OFFER_PAGE = { page: 0, pagesize: 50 } as const;

/** The device's row in its datalogger's offers. */
export function deviceOfferRow(rows: readonly UpgradeableRow[] | undefined, sn: string): UpgradeableRow | undefined {
  return rows?.find((r) => r.target === 1 && r.sn === sn);
}

/** The owner's rule: an offer for the device, or a running upgrade of it (false while unknown). */
export function ownerSeesUpgradeTab(rows: readonly UpgradeableRow[] | undefined, sn: string): boolean {
  const row = deviceOfferRow(rows, sn);
  if (!row) return false;
  return row.offer !== null || (row.task !== null && isRunning(row.task.status));
}

/**
 * Hook of the device detail (app/device-tabs.ts): for an owner whether the tab shows; true
 * without a query for everyone else.
 */
export function useOwnerUpgradeTab(device: DeviceTupleLike, owner: boolean): boolean {
  const q = useUpgradeOffers(device.pn, OFFER_PAGE.page, OFFER_PAGE.pagesize, owner && device.pn !== '');
  const shown = owner ? ownerSeesUpgradeTab(q.data?.item, device.sn) : true;
  const key = `${device.pn}/${device.devcode}/${device.devaddr}/${device.sn}`;
  const [stuck, setStuck] = useState('');
  if (owner && shown && stuck !== key) setStuck(key);
  return shown || stuck === key;
}
