import { useTranslation } from 'react-i18next';
import type { AreaDef } from '../../../app/routes';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { GuideSteps } from './GuideSteps';

/** The operating manual of the header menu: the guide's walk through the area, in a dialog. */
export default function ManualDialog({ area, open, onClose }: { area: AreaDef; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <DraggableModal open={open} title={t('personal:menu.manual')} onCancel={onClose} footer={null} width={560} destroyOnHidden>
      <GuideSteps area={area} />
    </DraggableModal>
  );
}
