/**
 * /adminNewStatr/home/passwordMaintenance (issue 14, spec §3 "device-control passwords per
 * custom domain"): every manufacturer with its custom domains and whether its device-control
 * password is set, when and by whom; set or reset one (entered twice, the spec's rule), clear it.
 * The password is stored hashed by the server and never shown again.
 */
import { useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Select, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CTRL_PWD_MAX, CTRL_PWD_MIN, type VendorCtrlPasswordRow } from '@sunwatch/protocol';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { enumFilter, useListState, wirePaging, type ListSpec } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useClearVendorCtrlPwd, useSetVendorCtrlPwd, useVendorCtrlPwds } from '../api/queries';
import { ctrlPwdErrors } from '../model';

const PAGE_SIZES = [10, 20, 50];
const SET_FILTERS = ['all', 'set', 'unset'] as const;
type SetFilter = (typeof SET_FILTERS)[number];
interface PwdListState {
  current: number;
  pageSize: number;
  search: string;
  state: SetFilter;
}
const SPEC: ListSpec<PwdListState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...enumFilter('state', SET_FILTERS, 'all'),
};

function PasswordDialog({ vendor, onClose }: { vendor: VendorCtrlPasswordRow; onClose: () => void }) {
  const { t } = useTranslation('operatorDomains');
  const [form] = Form.useForm<{ pwd: string; confirm: string }>();
  const set = useSetVendorCtrlPwd();
  const [error, setError] = useState<string>();
  const range = { min: CTRL_PWD_MIN, max: CTRL_PWD_MAX };
  const rule = (field: 'pwd' | 'confirm') => ({
    validator: async () => {
      const v = form.getFieldsValue(true) as { pwd?: string; confirm?: string };
      const key = ctrlPwdErrors(v.pwd ?? '', v.confirm ?? '')[field];
      if (key) throw new Error(t(`error.${key}`, range));
    },
  });
  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const v = form.getFieldsValue(true) as { pwd: string; confirm: string };
    setError(undefined);
    try {
      await set.mutateAsync({ vendor: vendor.vendorId, pwd: v.pwd, confirmPwd: v.confirm });
      void notice().success(t('pwd.saved', { vendor: vendor.name || vendor.usr }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };
  return (
    <DraggableModal
      open
      title={t(vendor.set ? 'pwd.resetTitle' : 'pwd.setTitle', { vendor: vendor.name || vendor.usr })}
      okText={t('save')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={set.isPending}
      okButtonProps={{ ...{ 'data-testid': 'pwd-form-ok' } }}
      width={440}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form form={form} layout="vertical" data-testid="pwd-form">
        <Form.Item
          name="pwd"
          label={t('pwd.new')}
          extra={t('error.pwdRule', range)}
          rules={[rule('pwd')]}
          validateTrigger="onBlur"
        >
          <Input.Password autoComplete="new-password" maxLength={CTRL_PWD_MAX} data-testid="pwd-field-pwd" />
        </Form.Item>
        <Form.Item name="confirm" label={t('pwd.repeat')} rules={[rule('confirm')]} validateTrigger="onBlur">
          <Input.Password autoComplete="new-password" maxLength={CTRL_PWD_MAX} data-testid="pwd-field-confirm" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('pwd.effect')}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} data-testid="pwd-form-error" />}
    </DraggableModal>
  );
}

export default function PasswordMaintenancePage() {
  const { t } = useTranslation('operatorDomains');
  const confirm = useConfirm();
  const [state, update] = useListState(SPEC);
  const list = useVendorCtrlPwds({
    ...wirePaging(state),
    ...(state.search ? { search: state.search } : {}),
    ...(state.state !== 'all' ? { set: state.state === 'set' } : {}),
  });
  const clear = useClearVendorCtrlPwd();
  const [dialog, setDialog] = useState<VendorCtrlPasswordRow>();
  const when = (ms: number) =>
    new Intl.DateTimeFormat(bcp47(currentLocale()), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));

  const askClear = (r: VendorCtrlPasswordRow) =>
    confirm({
      title: t('pwd.clearTitle', { vendor: r.name || r.usr }),
      content: t('pwd.clearText'),
      okText: t('pwd.clear'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'pwd-clear-ok' } },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await clear.mutateAsync(r.vendorId);
          void notice().success(t('pwd.cleared', { vendor: r.name || r.usr }));
        } catch (e) {
          showApiError(e);
        }
      },
    });

  const columns: TableColumnsType<VendorCtrlPasswordRow> = [
    {
      title: t('col.vendor'),
      key: 'vendor',
      width: 180,
      render: (_: unknown, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{r.name || r.usr}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.usr}
            {r.vendorCode ? ` · ${r.vendorCode}` : ''}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('col.domains'),
      key: 'domains',
      width: 200,
      render: (_: unknown, r) =>
        r.domains.length ? (
          <Flex gap={4} wrap>
            {r.domains.map((d) => (
              <Tag key={d}>{d}</Tag>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('pwd.noDomains')}</Typography.Text>
        ),
    },
    {
      title: t('col.password'),
      key: 'set',
      width: 180,
      render: (_: unknown, r) =>
        r.set ? (
          <Space direction="vertical" size={0}>
            <Tag color="success" icon={<LockOutlined />} data-testid="pwd-state">
              {t('pwd.isSet')}
            </Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('pwd.setBy', { who: r.setBy || '—', when: when(r.setAt) })}
            </Typography.Text>
          </Space>
        ) : (
          <Tag icon={<UnlockOutlined />} data-testid="pwd-state">
            {t('pwd.notSet')}
          </Tag>
        ),
    },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 170,
      render: (_: unknown, r) => (
        <Flex gap={4} wrap>
          <Button size="small" onClick={() => setDialog(r)} data-testid="pwd-set">
            {t(r.set ? 'pwd.reset' : 'pwd.set')}
          </Button>
          {r.set && (
            <Button size="small" danger onClick={() => askClear(r)} data-testid="pwd-clear">
              {t('pwd.clear')}
            </Button>
          )}
        </Flex>
      ),
    },
  ];

  return (
    <Card title={t('pwd.title')} size="small" data-testid="pwd-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('pwd.hint')}
        </Typography.Paragraph>
        <Flex wrap gap={8}>
          <Input.Search
            allowClear
            defaultValue={state.search}
            placeholder={t('pwd.searchPlaceholder')}
            onSearch={(v) => update({ search: v.trim() })}
            style={{ width: 260, maxWidth: '100%' }}
            data-testid="pwd-search"
          />
          <Select<SetFilter>
            value={state.state}
            onChange={(v) => update({ state: v })}
            options={SET_FILTERS.map((s) => ({ value: s, label: t(`pwd.filter.${s}`) }))}
            style={{ width: 160, maxWidth: '100%' }}
            data-testid="pwd-filter"
          />
        </Flex>
        <PagedTable<VendorCtrlPasswordRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('pwd.empty')}
          rows={list.data?.vendors}
          total={list.data?.total}
          rowKey="vendorId"
          columns={columns}
          pager={{ state, update, pageSizes: PAGE_SIZES, showTotal: (n) => t('total', { n }) }}
          onRow={(r) => ({ 'data-testid': 'pwd-row', 'data-id': r.vendorId, 'data-set': r.set ? '1' : '0' })}
        />
      </Space>
      {dialog && <PasswordDialog vendor={dialog} onClose={() => setDialog(undefined)} />}
    </Card>
  );
}
