import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Modal, type ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { DialogHandle, useDialogMove } from './DialogFrame';
import { arrowStep, resizeBy, type Box, type Size } from './geometry';
import { followPointer, useCompactScreen, viewport } from './pointer';

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
  const [size, setSize] = useState<Size | undefined>();
  /** During a resize: where the upper left corner must stay (the modal centres itself otherwise). */
  const anchor = useRef<{ left: number; top: number } | null>(null);

  useEffect(() => {
    if (open) {
      anchor.current = null;
      setOffset({ x: 0, y: 0 });
      setSize(undefined);
    }
  }, [open, setOffset]);

  useEffect(() => {
    if (compact) {
      anchor.current = null;
      setSize(undefined);
    }
  }, [compact]);

  // A new width re-centres the modal (and a new height a centred one): shift the offset back so
  // the corner opposite the grip stays where the resize started.
  useLayoutEffect(() => {
    const at = anchor.current;
    const r = box.current?.getBoundingClientRect();
    if (!at || !r || !size) return;
    const dx = at.left - r.left;
    const dy = at.top - r.top;
    if (Math.abs(dx) > 0.01 || Math.abs(dy) > 0.01) setOffset((o) => ({ x: o.x + dx, y: o.y + dy }));
  }, [size, box, setOffset]);

  const startBox = (): Box => {
    const r = box.current?.getBoundingClientRect();
    const b = r ? { left: r.left, top: r.top, width: r.width, height: r.height } : { left: 0, top: 0, width: 520, height: 300 };
    anchor.current = { left: b.left, top: b.top };
    return size ? { ...b, ...size } : b;
  };

  const startResize = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (compact || e.button !== 0) return;
    e.stopPropagation();
    const from = startBox();
    followPointer(e, (dx, dy) => setSize(resizeBy(from, dx, dy, viewport())));
  };

  const keyResize = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = compact ? undefined : arrowStep(e.key);
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    setSize(resizeBy(startBox(), step[0], step[1], viewport()));
  };

  const shown = compact ? undefined : size;
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
