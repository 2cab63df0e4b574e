/**
 * The confirmation before a viewer is deleted (unrecoverable). Loaded on demand with the page's
 * other dialogs, so the list's first load stays light.
 */
import { type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ViewerRow } from '../api/queries';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export interface DeleteViewerModalProps {
  viewer: ViewerRow | undefined;
  pending: boolean;
  onConfirm: (viewer: ViewerRow) => void;
  onClose: () => void;
}

export function DeleteViewerModal({ viewer, pending, onConfirm, onClose }: DeleteViewerModalProps) {
  const { t } = useTranslation();
  return (
    <DraggableModal
      open={viewer !== undefined}
      title={viewer ? t('subaccounts:confirmDelete.title', { usr: viewer.usr }) : ''}
      okText={t('subaccounts:confirmDelete.ok')}
      cancelText={t('subaccounts:form.cancel')}
      okButtonProps={{ danger: true, loading: pending, 'data-testid': 'viewer-delete-confirm' } as ButtonProps}
      onOk={() => viewer && onConfirm(viewer)}
      onCancel={onClose}
      width={420}
      data-testid="viewer-delete-modal"
    >
      {t('subaccounts:confirmDelete.text')}
    </DraggableModal>
  );
}
