import type { ActionName } from './index.js';

/**
 * Actions whose EMPTY parameter values mean something, so clients send them (`&k=`) instead of
 * dropping them (spec §7: "parameters that are undefined, null or empty are dropped — for some calls
 * only undefined or null"). The vendor's edit semantics: an empty value clears a field (`&cname=`);
 * an empty `groupid` selects ungrouped accounts (webQueryUsrEs) or moves out of any group
 * (moveAccountGroup); an empty `rid` unbinds a custom role (editDist, editPlantBrowser).
 */
export const KEEP_EMPTY_VALUES: ReadonlySet<ActionName> = new Set<ActionName>([
  'editAccount',
  'editSubAccount',
  'editDist',
  'editPlantBrowser',
  'editPlant',
  'editUsrGroup',
  'editRole',
  'webQueryUsrEs',
  'moveAccountGroup',
  'editCollectorEs',
  'editDeviceInfo',
  'setDeviceCtrlPwd',
  'editEmailPush',
]);
