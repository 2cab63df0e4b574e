/** Edit from the project list: the plant's full record (queryPlantInfo) first, then the form. */
import { Skeleton, Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { usePlantInfo } from '../api/queries';
import PlantFormDialog from './PlantFormDialog';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export default function EditPlantDialog({ pid, onClose }: { pid: number; onClose: () => void }) {
  const { t } = useTranslation();
  const info = usePlantInfo(pid);
  if (info.data) return <PlantFormDialog open plant={info.data} chooseOwner={false} onClose={onClose} />;
  return (
    <DraggableModal open title={t('plants:actions.edit')} onCancel={onClose} footer={null}>
      {info.isError ? <Alert type="error" showIcon message={apiErrorText(info.error)} /> : <Skeleton active />}
    </DraggableModal>
  );
}
