/**
 * Device control permissions (spec §6): per protocol definition, which control fields the
 * caller's owners (`visable`) and subordinate administrators may see and write.
 */
import { useState } from 'react';
import { Flex, Select, Switch, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEVICE_DEFINITIONS, type CtrlFieldForDist } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ListStates, emptyLocale, responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { useAdminMutation, useCtrlFields, useVisibleDevcodes } from '../api/queries';
import type { AdminAccess } from './use-admin-access';

/** The devcodes that have control fields, with their names. */
export const CONTROLLABLE = DEVICE_DEFINITIONS.filter((d) => d.controls.length > 0).map((d) => ({
  devcode: d.devcode,
  name: d.name,
}));

export default function CtrlFieldsTab({ access, classic }: { access: AdminAccess; classic: boolean }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  // only the devcodes the caller's manufacturer lets its area see (the server refuses others, 353)
  const visible = useVisibleDevcodes();
  const offered =
    visible.data && !visible.data.all
      ? CONTROLLABLE.filter((d) => visible.data.devcodes.includes(d.devcode))
      : CONTROLLABLE;
  const [picked, setDevcode] = useState<number | undefined>();
  const devcode = offered.some((d) => d.devcode === picked) ? picked : offered[0]?.devcode;
  const fields = useCtrlFields(visible.isPending ? undefined : devcode);
  const edit = useAdminMutation('editDeviceCtrlFieldForDist');

  const set = (f: CtrlFieldForDist, which: 'visable' | 'distributorPermissionFlag', on: boolean) => {
    if (devcode === undefined) return;
    edit.mutate(
      { devcode, id: f.id, [which]: on },
      {
        onSuccess: () => void notice().success(t('accounts:done')),
        onError: (e) => void notice().error(apiErrorText(e)),
      },
    );
  };

  const columns: TableColumnsType<CtrlFieldForDist> = [
    { key: 'name', title: t('accounts:ctrl.field'), render: (_, f) => f.name || f.id },
    { key: 'id', title: t('accounts:ctrl.id'), dataIndex: 'id' },
    {
      key: 'owners',
      title: t('accounts:ctrl.owners'),
      render: (_, f) => (
        <Switch
          size="small"
          checked={f.visable}
          disabled={!access.ctrlWrite}
          onChange={(on) => set(f, 'visable', on)}
          aria-label={t('accounts:ctrl.owners')}
        />
      ),
    },
    {
      key: 'subAdmins',
      title: t('accounts:ctrl.subAdmins'),
      render: (_, f) => (
        <Switch
          size="small"
          checked={f.distributorPermissionFlag}
          disabled={!access.ctrlWrite}
          onChange={(on) => set(f, 'distributorPermissionFlag', on)}
          aria-label={t('accounts:ctrl.subAdmins')}
        />
      ),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="ctrl-tab">
      <Typography.Text type="secondary">{t('accounts:ctrl.hint')}</Typography.Text>
      <Select
        aria-label={t('accounts:ctrl.devcode')}
        value={devcode}
        onChange={setDevcode}
        style={{ width: phone ? '100%' : 360 }}
        options={offered.map((d) => ({ value: d.devcode, label: `${d.devcode} · ${d.name}` }))}
      />
      <ListStates query={fields} errorTitle={t('accounts:loadFailed')}>
        <Table<CtrlFieldForDist>
          rowKey="id"
          size={classic ? 'small' : 'middle'}
          bordered={classic}
          dataSource={fields.data?.field ?? []}
          loading={fields.isFetching || edit.isPending}
          locale={emptyLocale(t('accounts:empty'))}
          pagination={false}
          {...responsiveTable(columns, phone, 1)}
        />
      </ListStates>
    </Flex>
  );
}
