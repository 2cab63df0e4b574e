/**
 * Panels of the datalogger drawer that other features provide (issue 13: the "Upgrade" tab of
 * features/upgrades). The dataloggers feature may not import another feature
 * (features/boundaries.test.ts), so the app names them here, each loaded only when opened.
 */
import type { ComponentType } from 'react';
import type { Access } from './access';

export interface DataloggerPanelProps {
  pn: string;
  /** The firmware version the datalogger reports. */
  version: string;
}

export interface DataloggerPanelDef {
  key: string;
  /** i18n key of the tab's title. */
  titleKey: string;
  visible: (access: Access) => boolean;
  load: () => Promise<{ default: ComponentType<DataloggerPanelProps> }>;
}

/** After the drawer's own tabs. Everyone who sees dataloggers sees the upgrades (writes are checked inside and by the server). */
export const DATALOGGER_EXTRA_TABS: readonly DataloggerPanelDef[] = [
  {
    key: 'upgrade',
    titleKey: 'upgrades:panel.tab',
    visible: (a) => a.hasModule('device_manag'),
    load: () => import('../features/upgrades/components/DataloggerUpgradePanel'),
  },
];
