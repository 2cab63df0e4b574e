/**
 * The firmware library of one origin (0 firmware manager, 1 upgrade management): searched, filtered
 * by type and paged on the server; row actions edit, delete (confirmed; a refusal shows the
 * server's message) and download. Writers also get the upload button. The table scrolls inside
 * its card on a phone.
 */
import { useState, type HTMLAttributes } from 'react';
import { Button, Flex, Input, Select, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, DownloadOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FIRMWARE_TYPES, type FirmwareRow } from '@sunwatch/protocol';
import { saveUrlAs } from '../../../app/download';
import { notice, showApiError } from '../../../app/notify';
import { ListStates, emptyLocale, responsiveTable, tableLoading } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { downloadFirmware, useDeleteFirmware, useFirmwares } from '../api/queries';
import { FirmwareEditDialog } from './FirmwareEditDialog';
import { FirmwareUploadDialog } from './FirmwareUploadDialog';
import { formatSize, shortHash, typeKey, type FirmwareOrigin } from '../model';

export function FirmwareLibrary({ origin, canWrite }: { origin: FirmwareOrigin; canWrite: boolean }) {
  const { t } = useTranslation('firmware');
  const phone = useIsPhone();
  const confirm = useConfirm();
  const [search, setSearch] = useState('');
  const [type, setType] = useState<number>();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const list = useFirmwares({
    page: page.current - 1,
    pagesize: page.pageSize,
    origin,
    ...(search ? { search } : {}),
    ...(type !== undefined ? { type } : {}),
  });
  const del = useDeleteFirmware();
  const [editing, setEditing] = useState<FirmwareRow>();
  const [uploading, setUploading] = useState(false);

  const askDelete = (r: FirmwareRow) =>
    confirm({
      title: t('deleteTitle', { name: r.name, version: r.version }),
      content: t('deleteText'),
      okText: t('delete'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'fw-delete-ok' } },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await del.mutateAsync(r.firmware);
          void notice().success(t('deleted', { name: r.name, version: r.version }));
        } catch (e) {
          showApiError(e);
        }
      },
    });
  const download = async (r: FirmwareRow) => {
    try {
      const d = await downloadFirmware(r.firmware);
      saveUrlAs(d.url, d.name);
    } catch (e) {
      showApiError(e);
    }
  };

  const columns: TableColumnsType<FirmwareRow> = [
    {
      title: t('col.name'),
      dataIndex: 'name',
      width: 160,
      render: (name: string, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid="fw-name">
            {name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.fileName}
          </Typography.Text>
          {r.defaultFor.length > 0 && (
            <Tag color="blue" data-testid="fw-default-for">
              {t('defaultFor', { types: r.defaultFor.join(', ') })}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('col.version'), dataIndex: 'version', width: 100 },
    { title: t('col.type'), dataIndex: 'type', width: 120, render: (v: number) => t(`types.${typeKey(v)}`) },
    { title: t('col.baudRate'), dataIndex: 'baudRate', width: 100, render: (v: number | null) => v ?? '—' },
    { title: t('col.size'), dataIndex: 'size', width: 100, render: (v: number) => formatSize(v) },
    {
      title: t('col.sha256'),
      dataIndex: 'sha256',
      width: 190,
      render: (v: string) => (
        <Typography.Text code copyable={{ text: v }} data-testid="fw-sha">
          {shortHash(v)}
        </Typography.Text>
      ),
    },
    {
      title: t('col.signature'),
      key: 'signed',
      width: 170,
      render: (_: unknown, r) =>
        r.signed ? (
          <Space direction="vertical" size={0}>
            <span>
              <Tag color={r.keyRevoked ? 'orange' : 'green'} data-testid="fw-signed" data-signed="1">
                {t('signed')}
              </Tag>
              {r.keyRevoked && <Tag color="red">{t('keyRevoked')}</Tag>}
            </span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('signedBy', { fingerprint: r.keyFingerprint })}
            </Typography.Text>
          </Space>
        ) : (
          <Tag data-testid="fw-signed" data-signed="0">
            {t('unsigned')}
          </Tag>
        ),
    },
    {
      title: t('col.uploaded'),
      key: 'uploaded',
      width: 170,
      render: (_: unknown, r) => (
        <Space direction="vertical" size={0}>
          <span>{r.vendor}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.uploadTime}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('col.desc'), dataIndex: 'desc', width: 200, ellipsis: { showTitle: true } },
    {
      title: t('col.actions'),
      key: 'actions',
      width: canWrite ? 130 : 60,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Tooltip title={t('download')}>
            <Button
              type="link"
              size="small"
              icon={<DownloadOutlined />}
              aria-label={t('download')}
              onClick={() => void download(r)}
              data-testid="fw-download"
            />
          </Tooltip>
          {canWrite && (
            <>
              <Tooltip title={t('edit')}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('edit')}
                  onClick={() => setEditing(r)}
                  data-testid="fw-edit"
                />
              </Tooltip>
              <Tooltip title={t('delete')}>
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('delete')}
                  onClick={() => askDelete(r)}
                  data-testid="fw-delete"
                />
              </Tooltip>
            </>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="fw-library" data-origin={origin}>
      <Flex wrap gap={8} justify="space-between" align="center">
        <Flex wrap gap={8} style={{ flex: 1, minWidth: 0 }}>
          <Input.Search
            allowClear
            placeholder={t('searchPlaceholder')}
            onSearch={(v) => {
              setSearch(v.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
            style={{ width: 280, maxWidth: '100%' }}
            data-testid="fw-search"
          />
          <Select
            allowClear
            placeholder={t('allTypes')}
            value={type}
            onChange={(v?: number) => {
              setType(v);
              setPage((p) => ({ ...p, current: 1 }));
            }}
            options={FIRMWARE_TYPES.map((ft) => ({ value: ft.id, label: t(`types.${ft.key}`) }))}
            style={{ width: 160, maxWidth: '100%' }}
            data-testid="fw-type-filter"
          />
        </Flex>
        {canWrite && (
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="fw-upload">
            {t('upload')}
          </Button>
        )}
      </Flex>
      <ListStates query={list} errorTitle={t('loadFailed')}>
        <Table<FirmwareRow>
          rowKey="firmware"
          size="small"
          dataSource={list.data?.firmware ?? []}
          loading={tableLoading(list)}
          locale={emptyLocale(t('empty'))}
          {...responsiveTable(columns, phone)}
          onRow={(r) => ({ 'data-testid': 'fw-row', 'data-code': r.firmware }) as HTMLAttributes<HTMLElement>}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: list.data?.total ?? 0,
            size: 'small',
            showTotal: (n) => t('total', { n }),
            onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
          }}
          data-testid="fw-table"
        />
      </ListStates>
      {editing && <FirmwareEditDialog row={editing} onClose={() => setEditing(undefined)} />}
      {uploading && <FirmwareUploadDialog origin={origin} onClose={() => setUploading(false)} />}
    </Space>
  );
}
