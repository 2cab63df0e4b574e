/**
 * The manufacturer's firmware signing keys (queryFirmwareKeys / addFirmwareKey / revokeFirmwareKey):
 * the list, a form to register an Ed25519 public key, and revoke after confirmation.
 */
import { useState, type HTMLAttributes } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FirmwareKeyRow } from '@sunwatch/protocol';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { emptyLocale, responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useAddFirmwareKey, useRevokeFirmwareKey } from '../api/queries';

export function SigningKeysCard({ keys, canWrite }: { keys: FirmwareKeyRow[]; canWrite: boolean }) {
  const { t } = useTranslation('firmware');
  const phone = useIsPhone();
  const confirm = useConfirm();
  const revoke = useRevokeFirmwareKey();
  const add = useAddFirmwareKey();
  const [form] = Form.useForm<{ name: string; publicKey: string }>();
  const [error, setError] = useState<string>();

  const askRevoke = (k: FirmwareKeyRow) =>
    confirm({
      title: t('keys.revokeTitle', { name: k.name || k.fingerprint }),
      content: t('keys.revokeText'),
      okText: t('keys.revoke'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'fw-key-revoke-ok' } },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await revoke.mutateAsync(k.id);
          void notice().success(t('keys.revokedDone'));
        } catch (e) {
          showApiError(e);
        }
      },
    });
  const submit = async () => {
    let v: { name: string; publicKey: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setError(undefined);
    try {
      const r = await add.mutateAsync({ name: (v.name ?? '').trim(), publicKey: v.publicKey.trim() });
      form.resetFields();
      void notice().success(t('keys.added', { fingerprint: r.fingerprint }));
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  const columns: TableColumnsType<FirmwareKeyRow> = [
    { title: t('keys.name'), dataIndex: 'name', width: 140 },
    {
      title: t('keys.fingerprint'),
      dataIndex: 'fingerprint',
      width: 200,
      render: (v: string, k) => (
        <Typography.Text code copyable={{ text: k.publicKey }}>
          {v}
        </Typography.Text>
      ),
    },
    { title: t('keys.created'), dataIndex: 'createTime', width: 160 },
    {
      title: t('keys.status'),
      key: 'status',
      width: 180,
      render: (_: unknown, k) =>
        k.revokeTime ? (
          <Tag color="red">{t('keys.revoked', { time: k.revokeTime })}</Tag>
        ) : (
          <Tag color="green">{t('keys.valid')}</Tag>
        ),
    },
    ...(canWrite
      ? [
          {
            title: t('col.actions'),
            key: 'actions',
            width: 110,
            render: (_: unknown, k: FirmwareKeyRow) =>
              k.revokeTime ? null : (
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<StopOutlined />}
                  onClick={() => askRevoke(k)}
                  data-testid="fw-key-revoke"
                >
                  {t('keys.revoke')}
                </Button>
              ),
          },
        ]
      : []),
  ];

  return (
    <Card title={t('keys.title')} size="small" data-testid="fw-keys">
      <Typography.Paragraph type="secondary">{t('keys.hint')}</Typography.Paragraph>
      <Table<FirmwareKeyRow>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={keys}
        locale={emptyLocale(t('keys.empty'))}
        {...responsiveTable(columns, phone)}
        onRow={(k) => ({ 'data-testid': 'fw-key-row', 'data-id': k.id }) as HTMLAttributes<HTMLElement>}
      />
      {canWrite && (
        <Form form={form} layout="vertical" style={{ marginTop: 16 }} data-testid="fw-key-form">
          <Flex gap={12} wrap align="end">
            <Form.Item name="name" label={t('keys.name')} style={{ flex: '1 1 160px', marginBottom: 8 }}>
              <Input maxLength={64} data-testid="fw-key-name" />
            </Form.Item>
            <Form.Item
              name="publicKey"
              label={t('keys.publicKey')}
              rules={[{ required: true, whitespace: true, message: t('keys.publicKeyRequired') }]}
              style={{ flex: '3 1 240px', marginBottom: 8 }}
            >
              <Input.TextArea
                rows={1}
                autoSize={{ minRows: 1, maxRows: 6 }}
                spellCheck={false}
                placeholder={t('keys.publicKeyPlaceholder')}
                data-testid="fw-key-public"
              />
            </Form.Item>
            <Button
              icon={<PlusOutlined />}
              onClick={() => void submit()}
              loading={add.isPending}
              style={{ marginBottom: 8 }}
              data-testid="fw-key-add"
            >
              {t('keys.add')}
            </Button>
          </Flex>
          {error && <Alert type="error" showIcon message={error} data-testid="fw-key-error" />}
        </Form>
      )}
    </Card>
  );
}
