/**
 * Deleting a plant: a confirmation, then delPlant. The server refuses while dataloggers remain
 * (517): the user is told to unbind them first, in the user's language.
 */
import { ApiCallError } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText, notice } from '../../../app/notify';
import { usePlantWrites } from '../api/mutations';
import { useConfirm } from '../../shared/dialog/use-confirm';

export function deletePlantErrorText(e: unknown, t: (key: string) => string): string {
  if (e instanceof ApiCallError && e.err === 517) return t('plants:delete.hasDataloggers');
  return apiErrorText(e);
}

export function useDeletePlant() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const { remove } = usePlantWrites();
  return (plant: { pid: number; name: string }, onDeleted?: () => void) => {
    confirm({
      title: t('plants:delete.title', { name: plant.name }),
      content: t('plants:delete.text'),
      okText: t('plants:delete.ok'),
      okButtonProps: { danger: true, id: 'confirm-delete-plant' },
      cancelText: t('plants:form.cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync(plant.pid);
          void notice().success(t('plants:delete.done', { name: plant.name }));
          onDeleted?.();
        } catch (e) {
          void notice().error({ content: deletePlantErrorText(e, t), className: 'plant-delete-error' });
        }
      },
    });
  };
}
