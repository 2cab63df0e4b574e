import { useEffect } from 'react';
import { Modal, type ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { DialogHandle, useDialogMove } from './DialogFrame';
import { useCompactScreen } from './pointer';
import { useDialogResize } from './use-dialog-resize';

/**
 * antd's Modal, draggable by its title bar and resizable from its lower right corner (spec §2
 * "Dialogs: draggable and resizable, minimum 400 x 300"). Every dialog of the app uses it in
 * place of `Modal`, with the same props (the imperative confirms use `useConfirm`). Mouse, pen
 * or touch drag the title bar and the corner grip; keyboard: both take the focus (Tab), arrow
 * keys move or resize by 16 px. A resize keeps the upper left corner in place, never goes below
 * 400 × 300 nor past the viewport. On a screen narrower than the minimum (a phone) the dialog
 * fills the width and neither moves nor resizes. Position and size start afresh at each opening.
 */
export function DraggableModal({ title, width, styles, modalRender, open, ...rest }: ModalProps) {
  const { t } = useTranslation();
  const compact = useCompactScreen();
  const { offset, setOffset, box, startMove, keyMove } = useDialogMove(!compact);
  const { size: shown, startResize, keyResize, reset } = useDialogResize(box, compact, setOffset, 520);

  useEffect(() => {
    if (open) {
      reset();
      setOffset({ x: 0, y: 0 });
    }
  }, [open, setOffset, reset]);

  useEffect(() => {
    if (compact) reset();
  }, [compact, reset]);

  const container = styles && typeof styles === 'object' ? styles : undefined;
  return (
    <Modal
      {...rest}
      open={open}
      title={<DialogHandle handlers={{ enabled: !compact, startMove, keyMove }}>{title}</DialogHandle>}
      width={shown ? shown.width : width}
      styles={{
        ...container,
        container: shown
          ? { ...container?.container, height: shown.height, display: 'flex', flexDirection: 'column' }
          : container?.container,
        body: shown ? { ...container?.body, flex: '1 1 auto', minHeight: 0, overflow: 'auto' } : container?.body,
      }}
      modalRender={(node) => (
        <div
          ref={box}
          className="sw-dmodal"
          data-testid="dialog-box"
          style={{ position: 'relative', transform: `translate(${offset.x}px, ${offset.y}px)` }}
        >
          {modalRender ? modalRender(node) : node}
          {compact ? null : (
            <div
              className="sw-dialog-resize"
              data-testid="dialog-resize-handle"
              role="separator"
              tabIndex={0}
              aria-label={t('personal:dialog.resize')}
              // antd's .ant-modal takes no pointer events (clicks beside the content reach the
              // mask); its content takes them back, and so must the grip, painted beside it
              style={{ pointerEvents: 'auto' }}
              onPointerDown={startResize}
              onKeyDown={keyResize}
            />
          )}
        </div>
      )}
    />
  );
}
