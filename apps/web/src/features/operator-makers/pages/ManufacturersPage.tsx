/**
 * /adminNewStatr/home/factoryAccount (issue 14, operator only): the manufacturers — id, name,
 * code, account, enabled, visible devcodes, ecoin (spec §3) — searched, filtered and paged on the
 * server (list kit: page and filters in the address bar). Create, edit, enable/disable (the
 * account's sign-in, at once) and ecoin adjustments with a reason. docs/operator/manufacturers.md.
 */
import { useState } from 'react';
import { Button, Card, Flex, Input, Segmented, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { EditOutlined, PlusOutlined, WalletOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ManufacturerRow } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { enumFilter, useListState, wirePaging, type ListSpec } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useManufacturerList, useSetManufacturerEnabled } from '../api/queries';
import { EcoinDialog } from '../components/EcoinDialog';
import { MakerDialog } from '../components/MakerDialog';

const PAGE_SIZES = [10, 20, 50];
type Status = 'all' | 'enabled' | 'disabled';
interface MakerState {
  current: number;
  pageSize: number;
  search: string;
  status: Status;
}
const SPEC: ListSpec<MakerState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...enumFilter('status', ['all', 'enabled', 'disabled'], 'all'),
};

export default function ManufacturersPage() {
  const { t } = useTranslation('operatorMakers');
  const confirm = useConfirm();
  const [state, update] = useListState(SPEC);
  const list = useManufacturerList({
    ...wirePaging(state),
    ...(state.search ? { search: state.search } : {}),
    ...(state.status !== 'all' ? { enabled: state.status === 'enabled' } : {}),
  });
  const toggle = useSetManufacturerEnabled();
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'edit' | 'ecoin'; row: ManufacturerRow }>();

  const setEnabled = async (r: ManufacturerRow, enabled: boolean) => {
    try {
      await toggle.mutateAsync({ uid: r.uid, enabled });
      void notice().success(t(enabled ? 'enabledDone' : 'disabledDone', { usr: r.usr }));
    } catch (e) {
      showApiError(e);
    }
  };
  const askToggle = (r: ManufacturerRow, enabled: boolean) => {
    if (enabled) return void setEnabled(r, true);
    confirm({
      title: t('disableTitle', { usr: r.usr }),
      content: t('disableText'),
      okText: t('disable'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'maker-disable-ok' } },
      cancelText: t('cancel'),
      onOk: () => setEnabled(r, false),
    });
  };

  const columns: TableColumnsType<ManufacturerRow> = [
    { title: t('col.id'), dataIndex: 'uid', width: 70 },
    {
      title: t('col.code'),
      dataIndex: 'code',
      width: 90,
      render: (v: string) =>
        v ? (
          <Typography.Text code strong>
            {v}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
    {
      title: t('col.name'),
      key: 'name',
      width: 200,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{r.name || '—'}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('rulesCount', { n: r.rules })}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('col.usr'), dataIndex: 'usr', width: 140 },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (enabled: boolean, r) => (
        <Switch
          size="small"
          checked={enabled}
          aria-label={t(enabled ? 'disable' : 'enable')}
          loading={toggle.isPending && toggle.variables?.uid === r.uid}
          onChange={(v) => askToggle(r, v)}
          data-testid="maker-enabled"
        />
      ),
    },
    {
      title: t('col.devcodes'),
      key: 'devcodes',
      width: 220,
      render: (_, r) => (
        <Flex wrap gap={4} align="center">
          {r.devcodes.length === 0 ? <Tag>{t('allDevcodes')}</Tag> : r.devcodes.map((d) => <Tag key={d}>{d}</Tag>)}
          {r.outsideDataloggers > 0 && (
            <Tooltip title={t('outsideHint')}>
              <Tag color="warning" icon={<WarningOutlined />} data-testid="maker-outside">
                {t('outside', { n: r.outsideDataloggers })}
              </Tag>
            </Tooltip>
          )}
        </Flex>
      ),
    },
    { title: t('col.dataloggers'), dataIndex: 'dataloggers', width: 100 },
    {
      title: t('col.ecoin'),
      dataIndex: 'ecoin',
      width: 90,
      render: (v: number) => <span data-testid="maker-ecoin">{v}</span>,
    },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 120,
      render: (_, r) => (
        <Space size={4}>
          <Tooltip title={t('edit')}>
            <Button
              size="small"
              icon={<EditOutlined />}
              aria-label={t('edit')}
              onClick={() => setDialog({ kind: 'edit', row: r })}
              data-testid="maker-edit"
            />
          </Tooltip>
          <Tooltip title={t('ecoin.title', { usr: r.usr })}>
            <Button
              size="small"
              icon={<WalletOutlined />}
              aria-label={t('ecoin.adjust')}
              onClick={() => setDialog({ kind: 'ecoin', row: r })}
              data-testid="maker-ecoin-adjust"
            />
          </Tooltip>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('title')} size="small" data-testid="maker-list-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
        <Flex wrap gap={8} justify="space-between" align="center">
          <Flex wrap gap={8} align="center">
            <Input.Search
              allowClear
              placeholder={t('searchPlaceholder')}
              defaultValue={state.search}
              onSearch={(v) => update({ search: v.trim() })}
              style={{ width: 260, maxWidth: '100%' }}
              data-testid="maker-search"
            />
            <Segmented<Status>
              value={state.status}
              onChange={(status) => update({ status })}
              options={[
                { value: 'all', label: t('status.all') },
                { value: 'enabled', label: t('status.enabled') },
                { value: 'disabled', label: t('status.disabled') },
              ]}
            />
          </Flex>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ kind: 'add' })}
            data-testid="maker-add"
          >
            {t('add')}
          </Button>
        </Flex>
        <PagedTable<ManufacturerRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('empty')}
          rows={list.data?.manufacturers}
          total={list.data?.total}
          rowKey="uid"
          columns={columns}
          pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('total', { n }) }}
          onRow={(r) => ({ 'data-testid': 'maker-row', 'data-code': r.code })}
        />
      </Space>
      {dialog?.kind === 'add' && <MakerDialog onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'edit' && <MakerDialog row={dialog.row} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'ecoin' && <EcoinDialog row={dialog.row} onClose={() => setDialog(undefined)} />}
    </Card>
  );
}
