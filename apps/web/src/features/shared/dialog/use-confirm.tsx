import { useCallback } from 'react';
import { App, type ModalFuncProps } from 'antd';
import { DialogFrame, DialogHandle } from './DialogFrame';

/**
 * The app's confirm dialogs, draggable by their title like every other dialog: `confirm(props)`
 * takes what antd's `modal.confirm` takes and returns what it returns (built on
 * `App.useApp().modal`, so it follows the app's theme, skin and locale).
 */
export function useConfirm() {
  const { modal } = App.useApp();
  return useCallback(
    ({ title, modalRender, ...props }: ModalFuncProps) =>
      modal.confirm({
        ...props,
        title: <DialogHandle>{title}</DialogHandle>,
        modalRender: (node) => <DialogFrame>{modalRender ? modalRender(node) : node}</DialogFrame>,
      }),
    [modal],
  );
}
