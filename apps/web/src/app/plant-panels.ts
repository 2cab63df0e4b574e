/**
 * Dialogs of other features that the plant page opens (issue 10: bind a datalogger from the
 * plant's datalogger card). The plants feature may not import another feature
 * (features/boundaries.test.ts), so the app names them here, each loaded only when opened.
 */
import type { ComponentType } from 'react';

export interface AddDataloggerDialogProps {
  initialTab: 'single' | 'batch';
  onClose: () => void;
  /** The plant the datalogger is bound to, chosen beforehand (the dialog's plant picker shows it). */
  plant?: { pid: number; name: string };
}

/** The datalogger feature's add dialog (addCollectorToPlant, addCollectorsBySheet). */
export const loadAddDataloggerDialog = (): Promise<{ default: ComponentType<AddDataloggerDialogProps> }> =>
  import('../features/dataloggers/components/AddDataloggerDialog');
