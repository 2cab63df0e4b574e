/**
 * Device management under the device info (vendor chapter 5): edit the alias (editDeviceInfo),
 * remove the device from its plant (delDeviceFromPlant, after a confirmation). Also used by the
 * auxiliary-functions page for a device found by its SN.
 */
import { useEffect, useState } from 'react';
import { App, Button, Card, Flex, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import type { DeviceTabProps } from '../../../app/device-tabs';
import { useDeviceRecord, useEditAlias, useRemoveFromPlant } from '../api/queries';
import { useConfirm } from '../../shared/dialog/use-confirm';

export default function DeviceManagePanel({ device, onChanged }: DeviceTabProps & { onChanged?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirm();
  const info = useDeviceRecord(device);
  const [alias, setAlias] = useState('');
  const edit = useEditAlias(device);
  const remove = useRemoveFromPlant(device);
  const current = info.data?.alias ?? '';
  useEffect(() => setAlias(current), [current]);
  const tooLong = alias.trim().length > 64;

  const save = async () => {
    try {
      await edit.mutateAsync(alias.trim());
      void message.success(t('deviceOps:edit.saved'));
      onChanged?.();
    } catch (e) {
      void message.error(apiErrorText(e));
    }
  };

  const confirmRemove = () => {
    const name = current || device.sn;
    confirm({
      title: t('deviceOps:edit.removeTitle', { name }),
      content: t('deviceOps:edit.removeBody'),
      okText: t('deviceOps:edit.remove'),
      okButtonProps: { danger: true, 'data-testid': 'remove-ok' },
      cancelText: t('deviceOps:common.cancel'),
      onOk: async () => {
        try {
          await remove.mutateAsync();
          void message.success(t('deviceOps:edit.removed'));
          onChanged?.();
        } catch (e) {
          void message.error(apiErrorText(e));
        }
      },
    });
  };

  const pname = info.data?.pid ? info.data.pname : undefined;
  return (
    <Card size="small" title={t('deviceOps:edit.title')} data-testid="device-manage">
      <Flex vertical gap={12}>
        <Flex gap={8} wrap align="center">
          <Typography.Text style={{ minWidth: 80 }}>{t('deviceOps:edit.alias')}</Typography.Text>
          <Input
            data-testid="alias-input"
            value={alias}
            maxLength={64}
            status={tooLong ? 'error' : undefined}
            placeholder={t('deviceOps:edit.aliasPlaceholder')}
            onChange={(e) => setAlias(e.target.value)}
            style={{ flex: '1 1 200px', maxWidth: 320 }}
          />
          <Button type="primary" loading={edit.isPending} disabled={tooLong || alias.trim() === current} onClick={() => void save()} data-testid="alias-save">
            {t('deviceOps:edit.save')}
          </Button>
        </Flex>
        <Flex gap={8} wrap align="center">
          <Typography.Text style={{ minWidth: 80 }}>{t('deviceOps:edit.plant')}</Typography.Text>
          <Typography.Text data-testid="manage-plant">{pname || t('deviceOps:edit.noPlant')}</Typography.Text>
          <Button danger loading={remove.isPending} disabled={!pname} onClick={confirmRemove} data-testid="remove-from-plant">
            {t('deviceOps:edit.remove')}
          </Button>
        </Flex>
      </Flex>
    </Card>
  );
}
