import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Modal, type ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { arrowStep, clampOffset, clampSize, type Offset, type Size } from './geometry';

function viewport(): Size {
  return { width: window.innerWidth, height: window.innerHeight };
}

/**
 * antd's Modal, draggable by its title bar and resizable from its lower right corner (spec §2
 * "Dialogs: draggable and resizable, minimum 400 x 300"). Every dialog of the app uses it in
 * place of `Modal`, with the same props. Keyboard: the title bar and the corner grip take the
 * focus (Tab); arrow keys move or resize by 16 px. A resize never goes below 400 × 300 (nor
 * beyond the viewport; on a screen narrower than that, the screen's width is the minimum).
 * Position and size start afresh each time the dialog opens.
 */
export function DraggableModal({ title, width, styles, modalRender, open, ...rest }: ModalProps) {
  const { t } = useTranslation();
  const [offset, setOffset] = useState<Offset>({ x: 0, y: 0 });
  const [size, setSize] = useState<Size | undefined>();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) {
      setOffset({ x: 0, y: 0 });
      setSize(undefined);
    }
  }, [open]);

  /** The dialog's box without the drag offset. */
  const baseRect = useCallback(
    (at: Offset) => {
      const r = box.current?.getBoundingClientRect();
      return r ? { left: r.left - at.x, top: r.top - at.y, width: r.width } : { left: 0, top: 0, width: 0 };
    },
    [],
  );

  const moveTo = useCallback(
    (next: Offset, current: Offset) => setOffset(clampOffset(next, baseRect(current), viewport())),
    [baseRect],
  );

  const measured = (): Size => {
    const r = box.current?.getBoundingClientRect();
    return size ?? { width: r?.width ?? 520, height: r?.height ?? 300 };
  };

  const startDrag = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const start = { x: e.clientX, y: e.clientY };
    const from = offset;
    const onMove = (ev: PointerEvent) => moveTo({ x: from.x + ev.clientX - start.x, y: from.y + ev.clientY - start.y }, from);
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };

  const startResize = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    const start = { x: e.clientX, y: e.clientY };
    const from = measured();
    const onMove = (ev: PointerEvent) =>
      setSize(clampSize({ width: from.width + ev.clientX - start.x, height: from.height + ev.clientY - start.y }, viewport()));
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
  };

  const keyMove = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = arrowStep(e.key);
    if (!step) return;
    e.preventDefault();
    moveTo({ x: offset.x + step[0], y: offset.y + step[1] }, offset);
  };

  const keyResize = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = arrowStep(e.key);
    if (!step) return;
    e.preventDefault();
    e.stopPropagation();
    const from = measured();
    setSize(clampSize({ width: from.width + step[0], height: from.height + step[1] }, viewport()));
  };

  const handle: ReactNode = (
    <div
      className="sw-dialog-handle"
      data-testid="dialog-drag-handle"
      tabIndex={0}
      aria-label={t('personal:dialog.move')}
      aria-roledescription={t('personal:dialog.moveRole')}
      onPointerDown={startDrag}
      onKeyDown={keyMove}
      style={{ cursor: 'move', userSelect: 'none', touchAction: 'none', minHeight: 22 }}
    >
      {title ?? '\u00a0'}
    </div>
  );

  const container = styles && typeof styles === 'object' ? styles : undefined;
  return (
    <Modal
      {...rest}
      open={open}
      title={handle}
      width={size ? size.width : width}
      styles={{
        ...container,
        container: size
          ? { ...container?.container, height: size.height, display: 'flex', flexDirection: 'column' }
          : container?.container,
        body: size ? { ...container?.body, flex: '1 1 auto', minHeight: 0, overflow: 'auto' } : container?.body,
      }}
      modalRender={(node) => (
        <div
          ref={box}
          className="sw-dialog"
          data-testid="dialog-box"
          style={{ position: 'relative', transform: `translate(${offset.x}px, ${offset.y}px)` }}
        >
          {modalRender ? modalRender(node) : node}
          <div
            className="sw-dialog-resize"
            data-testid="dialog-resize-handle"
            role="separator"
            tabIndex={0}
            aria-label={t('personal:dialog.resize')}
            onPointerDown={startResize}
            onKeyDown={keyResize}
          />
        </div>
      )}
    />
  );
}
