/**
 * Dialogs open from the details drawer too: they stack above it (antd drawers and modals share
 * z-index 1000, and a lazily loaded dialog may mount before the drawer's portal).
 */
export const DIALOG_Z = 1100;
