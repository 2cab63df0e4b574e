/**
 * Panels and dialogs of the plant page that other features provide (issue 10: bind a datalogger
 * from the plant's datalogger card; issue 11: the plant's alarms). The plants feature may not
 * import another feature (features/boundaries.test.ts), so the app names them here, each shown
 * only to accounts that may use it and loaded only when opened.
 */
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { accessFor, type Access } from './access';
import { useSession } from './use-session';

export interface PlantPanelProps {
  pid: number;
}

export interface PlantPanelDef {
  key: string;
  visible: (access: Access) => boolean;
  load: () => Promise<{ default: ComponentType<PlantPanelProps> }>;
}

/** Under the plant's devices, in this order. */
export const PLANT_PANELS: readonly PlantPanelDef[] = [
  {
    key: 'alarms',
    visible: (a) => a.hasModule('alarm_manag'),
    load: () => import('../features/alarms/components/PlantAlarmsCard'),
  },
];

const LOADED: ReadonlyMap<string, ComponentType<PlantPanelProps>> = new Map(PLANT_PANELS.map((p) => [p.key, lazy(p.load)]));

/** The panels the signed-in account may see, for one plant. */
export function PlantPanels({ pid }: PlantPanelProps) {
  const session = useSession();
  const shown = useMemo(() => PLANT_PANELS.filter((p) => p.visible(accessFor(session))), [session]);
  return (
    <>
      {shown.map((p) => {
        const Panel = LOADED.get(p.key)!;
        return (
          <Suspense key={p.key} fallback={null}>
            <Panel pid={pid} />
          </Suspense>
        );
      })}
    </>
  );
}

export interface AddDataloggerDialogProps {
  initialTab: 'single' | 'batch';
  onClose: () => void;
  /** The plant the datalogger is bound to, chosen beforehand (the dialog's plant picker shows it). */
  plant?: { pid: number; name: string };
}

/** The datalogger feature's add dialog (addCollectorToPlant, addCollectorsBySheet). */
export const loadAddDataloggerDialog = (): Promise<{ default: ComponentType<AddDataloggerDialogProps> }> =>
  import('../features/dataloggers/components/AddDataloggerDialog');
