/**
 * The operator's move of a datalogger (issue 14; moveCollectorVendor / moveCollectorOwner,
 * docs/operator/fleet.md): to another manufacturer, or to another plant owner (onto one of its
 * plants, or its default plant). Accounts are searched on the server (username, nickname, phone,
 * e-mail); the server applies the 273/276 rules and its refusal is shown in the dialog.
 */
import { useState } from 'react';
import { Alert, Button, Descriptions, Flex, Segmented, Select, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ROLE } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { apiErrorText, notice } from '../../../app/notify';
import { useIsPhone } from '../../../components/responsive';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { dataloggerKeys } from '../api/keys';
import { useDataloggerMutation } from '../api/queries';
import { DIALOG_Z } from '../model/layers';
import type { DataloggerRef } from '../model/types';

export type MoveTarget = 'vendor' | 'owner';

/** Accounts of one role found by the server's fuzzy search (first 20). */
function useAccountSearch(role: number, search: string) {
  return useQuery({
    queryKey: [...dataloggerKeys.all, 'moveTargets', role, search],
    queryFn: () => api.call('webQueryUsrEs', { role, pagesize: 20, orderBy: 'ascUsr', ...(search ? { search } : {}) }),
    placeholderData: keepPreviousData,
  });
}

export default function MoveDataloggerDialog({ row, onClose }: { row: DataloggerRef; onClose: () => void }) {
  const { t } = useTranslation(['operatorFleet', 'dataloggers']);
  const phone = useIsPhone();
  const [target, setTarget] = useState<MoveTarget>('vendor');
  const [search, setSearch] = useState('');
  const [uid, setUid] = useState<number>();
  const [plantid, setPlantid] = useState<number>();
  const [error, setError] = useState<string>();
  const detail = useQuery({
    queryKey: dataloggerKeys.detail(row.pn),
    queryFn: () => api.call('queryCollectorDetail', { pn: row.pn }),
  });
  const accounts = useAccountSearch(target === 'vendor' ? ROLE.MANUFACTURER : ROLE.OWNER, search.trim());
  const plants = useQuery({
    queryKey: [...dataloggerKeys.all, 'movePlants', uid],
    queryFn: () => api.call('webQueryPlants', { uid: uid!, pagesize: 50 }),
    enabled: target === 'owner' && uid !== undefined,
  });
  const toVendor = useDataloggerMutation('moveCollectorVendor');
  const toOwner = useDataloggerMutation('moveCollectorOwner');
  const pending = toVendor.isPending || toOwner.isPending;

  const switchTarget = (next: MoveTarget) => {
    setTarget(next);
    setSearch('');
    setUid(undefined);
    setPlantid(undefined);
    setError(undefined);
  };

  const run = async () => {
    if (uid === undefined) return setError(t(target === 'vendor' ? 'move.pickManufacturer' : 'move.pickOwner'));
    setError(undefined);
    try {
      if (target === 'vendor') {
        const r = await toVendor.mutateAsync({ pn: row.pn, vendorUid: uid });
        void notice().success(t('move.vendorDone', { pn: row.pn, usr: r.vendorUsr }));
      } else {
        const r = await toOwner.mutateAsync({ pn: row.pn, uid, ...(plantid !== undefined ? { plantid } : {}) });
        void notice().success(t('move.ownerDone', { pn: row.pn, usr: r.usr }));
      }
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  const d = detail.data;
  const options = (accounts.data?.account ?? []).map((a) => ({
    value: a.uid,
    label: [a.usr, a.qname !== a.usr ? a.qname : '', a.mobile, a.email].filter(Boolean).join(' · '),
  }));

  return (
    <DraggableModal
      open
      zIndex={DIALOG_Z}
      title={t('move.title', { pn: row.pn })}
      onCancel={onClose}
      destroyOnHidden
      {...(phone ? { width: '100%', style: { top: 0, maxWidth: '100vw', margin: 0 } } : { width: 560 })}
      data-testid="dl-move-dialog"
      footer={
        <Flex gap={8} justify="end">
          <Button onClick={onClose}>{t('dataloggers:actions.cancel')}</Button>
          <Button type="primary" loading={pending} onClick={() => void run()} data-testid="dl-move-run">
            {t('move.run')}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('move.currentManufacturer')}>{d?.vendorUsr || '--'}</Descriptions.Item>
          <Descriptions.Item label={t('move.currentOwner')}>
            {d ? (d.usr ? `${d.usr}${d.pname ? ` · ${d.pname}` : ''}` : t('move.noOwner')) : '--'}
          </Descriptions.Item>
        </Descriptions>
        <Segmented<MoveTarget>
          block
          value={target}
          onChange={switchTarget}
          options={[
            { value: 'vendor', label: t('move.toManufacturer') },
            { value: 'owner', label: t('move.toOwner') },
          ]}
          data-testid="dl-move-target"
        />
        <Typography.Text type="secondary">
          {t(target === 'vendor' ? 'move.vendorRules' : 'move.ownerRules')}
        </Typography.Text>
        <Select
          showSearch
          allowClear
          filterOption={false}
          value={uid}
          onSearch={setSearch}
          onChange={(v: number | undefined) => {
            setUid(v);
            setPlantid(undefined);
          }}
          loading={accounts.isFetching}
          options={options}
          placeholder={t(target === 'vendor' ? 'move.pickManufacturer' : 'move.pickOwner')}
          aria-label={t(target === 'vendor' ? 'move.pickManufacturer' : 'move.pickOwner')}
          notFoundContent={t('move.noMatch')}
          style={{ width: '100%' }}
          data-testid="dl-move-account"
        />
        {target === 'owner' && uid !== undefined && (
          <Select
            allowClear
            value={plantid}
            onChange={(v: number | undefined) => setPlantid(v)}
            loading={plants.isPending}
            options={(plants.data?.plant ?? []).map((p) => ({ value: p.pid, label: p.name }))}
            placeholder={t('move.defaultPlant')}
            aria-label={t('move.plant')}
            style={{ width: '100%' }}
            data-testid="dl-move-plant"
          />
        )}
        {error && <Alert type="error" showIcon message={error} data-testid="dl-move-error" />}
      </Flex>
    </DraggableModal>
  );
}
