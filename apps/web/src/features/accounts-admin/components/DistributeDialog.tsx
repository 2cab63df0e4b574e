/**
 * Distribute dataloggers (function button datalogger_distribute) to a subordinate account:
 * a list of PNs (distributeCollector), an xlsx/xls sheet (distributeCollectorBySheet: column A PN,
 * column B alias, no header; signed multipart upload with progress) or an order number
 * (distributeCollectorByOrder, spec §8 order-allocation errors). One result row per datalogger.
 * Also "add to my stock" (distAddCollector).
 */
import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Progress, Select, Table, Tabs, Tag, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  batchFileError,
  isPn,
  orderNumberSchema,
  ruleErrorKey,
  type DistributeDat,
  type DistributeResult,
} from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { uploadAction } from '../../../app/upload';
import { adminAccountKeys } from '../api/keys';
import { useAccountSearch, useAdminMutation } from '../api/queries';
import { formText } from './form-text';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

type Mode = 'list' | 'sheet' | 'order';

/** PNs typed or pasted: separated by commas, blanks or new lines; duplicates dropped. */
export function parsePnList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** The PNs of a list that do not have the PN form of spec §3 (14 or 18 letters and digits). */
export function invalidPns(pns: readonly string[]): string[] {
  return pns.filter((p) => !isPn(p));
}

export interface Target {
  uid: number;
  usr: string;
}

export function DistributeDialog({ target, onClose }: { target?: Target; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const qc = useQueryClient();
  const [mode, setMode] = useState<Mode>('sheet');
  const [search, setSearch] = useState('');
  const found = useAccountSearch(search);
  const [uid, setUid] = useState<number | undefined>(target?.uid);
  const [pnText, setPnText] = useState('');
  const [orderNo, setOrderNo] = useState('');
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<number>();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<DistributeDat>();
  const byList = useAdminMutation('distributeCollector');
  const byOrder = useAdminMutation('distributeCollectorByOrder');
  const pending = uploading || byList.isPending || byOrder.isPending;

  const run = async () => {
    setError(undefined);
    setResult(undefined);
    if (!uid) {
      setError(t('accounts:distribute.targetRequired'));
      return;
    }
    try {
      if (mode === 'list') {
        const pns = parsePnList(pnText);
        if (pns.length === 0) return setError(formText('rules.pn.required'));
        const bad = invalidPns(pns);
        if (bad.length) return setError(t('accounts:distribute.badPn', { pn: bad.join(', ') }));
        setResult(await byList.mutateAsync({ uid, pn: pns.join(',') }));
      } else if (mode === 'order') {
        const key = ruleErrorKey(orderNumberSchema, orderNo);
        if (key) return setError(formText(key));
        setResult(await byOrder.mutateAsync({ uid, orderNo: orderNo.trim() }));
      } else {
        const key = batchFileError(file ?? null, 'assignment');
        if (key || !file) return setError(formText(key ?? 'rules.file.required'));
        setUploading(true);
        setProgress(0);
        try {
          setResult(
            await uploadAction('distributeCollectorBySheet', { uid }, file, file.name, { onProgress: setProgress }),
          );
        } finally {
          setUploading(false);
          void qc.invalidateQueries({ queryKey: adminAccountKeys.all });
        }
      }
    } catch (e) {
      setError(apiErrorText(e, mode === 'order' ? 'orderAllocation' : 'general'));
    }
  };

  const targetOptions = [
    ...(target ? [{ value: target.uid, label: target.usr }] : []),
    ...(found.data?.account ?? [])
      .filter((a) => a.uid !== target?.uid)
      .map((a) => ({ value: a.uid, label: `${a.usr} · ${t(`common:roles.${a.role}`)}` })),
  ];

  const columns = [
    { key: 'row', title: t('accounts:distribute.row'), dataIndex: 'row', width: 64 },
    { key: 'pn', title: t('accounts:distribute.pn'), dataIndex: 'pn' },
    { key: 'alias', title: t('accounts:distribute.alias'), dataIndex: 'alias' },
    {
      key: 'result',
      title: t('accounts:distribute.result'),
      render: (_: unknown, r: DistributeResult) =>
        r.err === 0 ? (
          <Tag color="green">{t('accounts:distribute.assigned')}</Tag>
        ) : (
          <Typography.Text type="danger">{r.msg || r.desc}</Typography.Text>
        ),
    },
  ];

  return (
    <DraggableModal
      open
      title={t('accounts:distribute.title')}
      onCancel={onClose}
      footer={
        <Flex gap={8} justify="end">
          <Button onClick={onClose}>{t('accounts:actions.close')}</Button>
          <Button type="primary" loading={pending} onClick={() => void run()} data-testid="distribute-run">
            {t('accounts:distribute.run')}
          </Button>
        </Flex>
      }
      width={phone ? '100%' : 720}
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0 } : undefined}
      destroyOnHidden
      data-testid="distribute-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={t('accounts:distribute.target')} required>
          <Select
            showSearch
            filterOption={false}
            value={uid}
            onChange={setUid}
            onSearch={setSearch}
            loading={found.isFetching}
            placeholder={t('accounts:relate.search')}
            options={targetOptions}
            data-testid="distribute-target"
          />
        </Form.Item>
      </Form>
      <Tabs
        activeKey={mode}
        onChange={(k) => {
          setMode(k as Mode);
          setError(undefined);
        }}
        items={[
          {
            key: 'sheet',
            label: t('accounts:distribute.bySheet'),
            children: (
              <Flex vertical gap={8}>
                <Typography.Text type="secondary">{t('accounts:distribute.sheetHint')}</Typography.Text>
                <Upload
                  accept=".xlsx,.xls"
                  maxCount={1}
                  beforeUpload={(f) => {
                    setFile(f);
                    const key = batchFileError(f, 'assignment');
                    setError(key ? formText(key) : undefined);
                    return false;
                  }}
                  onRemove={() => setFile(undefined)}
                  fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
                  data-testid="distribute-upload"
                >
                  <Button icon={<UploadOutlined />}>{t('accounts:distribute.chooseFile')}</Button>
                </Upload>
                {progress !== undefined && uploading && (
                  <Progress percent={progress} size="small" data-testid="distribute-progress" />
                )}
              </Flex>
            ),
          },
          {
            key: 'list',
            label: t('accounts:distribute.byList'),
            children: (
              <Input.TextArea
                value={pnText}
                onChange={(e) => setPnText(e.target.value)}
                autoSize={{ minRows: 3, maxRows: 8 }}
                placeholder={t('accounts:distribute.listHint')}
                data-testid="distribute-pns"
              />
            ),
          },
          {
            key: 'order',
            label: t('accounts:distribute.byOrder'),
            children: (
              <Input
                value={orderNo}
                onChange={(e) => setOrderNo(e.target.value)}
                maxLength={64}
                placeholder={t('accounts:distribute.orderNo')}
              />
            ),
          },
        ]}
      />
      {error && <Alert type="error" showIcon message={error} data-testid="distribute-error" />}
      {result && (
        <Flex vertical gap={8} style={{ marginTop: 12 }} data-testid="distribute-result">
          <Alert
            type={result.failed === 0 ? 'success' : result.ok === 0 ? 'error' : 'warning'}
            showIcon
            message={t('accounts:distribute.summary', { ok: result.ok, failed: result.failed, total: result.total })}
          />
          <Table<DistributeResult>
            size="small"
            rowKey={(r) => `${r.row}:${r.pn}`}
            dataSource={result.result}
            pagination={result.result.length > 10 ? { pageSize: 10 } : false}
            {...responsiveTable(columns, phone, 2)}
          />
        </Flex>
      )}
    </DraggableModal>
  );
}

/** Add a datalogger to the caller's own stock (distAddCollector; 273 for another manufacturer's). */
export function AddStockDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const add = useAdminMutation('distAddCollector');
  const [pn, setPn] = useState('');
  const [alias, setAlias] = useState('');
  const [error, setError] = useState<string>();
  const submit = async () => {
    const p = pn.trim();
    if (!p) return setError(formText('rules.pn.required'));
    if (!isPn(p)) return setError(t('accounts:distribute.badPn', { pn: p }));
    try {
      await add.mutateAsync({ Dpn: p, alias: alias.trim() || undefined });
    } catch (e) {
      return setError(apiErrorText(e));
    }
    void notice().success(t('accounts:stock.done', { pn: p }));
    onClose();
  };
  return (
    <DraggableModal
      open
      title={t('accounts:stock.title')}
      onOk={() => void submit()}
      onCancel={onClose}
      okText={t('accounts:actions.save')}
      cancelText={t('accounts:actions.cancel')}
      confirmLoading={add.isPending}
      width={phone ? '100%' : 460}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('accounts:distribute.pn')} required>
          <Input value={pn} onChange={(e) => setPn(e.target.value)} maxLength={18} />
        </Form.Item>
        <Form.Item label={t('accounts:distribute.alias')}>
          <Input value={alias} onChange={(e) => setAlias(e.target.value)} maxLength={128} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </DraggableModal>
  );
}
