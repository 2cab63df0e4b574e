/**
 * A confirmation before something is deleted, loaded on demand (`lazy`) by the pages whose
 * first load must stay light (no Popconfirm or Modal in their first chunk).
 */
import type { ButtonProps } from 'antd';
import { DraggableModal } from '../../features/shared/dialog/DraggableModal';

export interface ConfirmDeleteModalProps {
  open: boolean;
  title: string;
  text?: string;
  okText: string;
  cancelText: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDeleteModal({ open, title, text, okText, cancelText, pending, onConfirm, onClose }: ConfirmDeleteModalProps) {
  return (
    <DraggableModal
      open={open}
      title={title}
      okText={okText}
      cancelText={cancelText}
      okButtonProps={{ danger: true, loading: pending, 'data-testid': 'confirm-delete-ok' } as ButtonProps}
      onOk={onConfirm}
      onCancel={onClose}
      width={420}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
      data-testid="confirm-delete-modal"
    >
      {text}
    </DraggableModal>
  );
}

export default ConfirmDeleteModal;
