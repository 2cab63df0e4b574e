/**
 * Add dataloggers (spec §2 "Datalogger: add (basic and connection info; single and batch)"):
 * - single (plant owners, addCollectorToPlant): plant, PN checked live with the PN rule of spec §5,
 *   alias; once added, the connection info the datalogger needs (queryCollectorDetail `connection`);
 * - batch (addCollectorsBySheet): an .xlsx file, column A PN, column B alias, no header; uploaded
 *   with progress; one result per row (520 duplicate in the file, 522 exists, 772 bound, 259
 *   invalid PN, …). An owner binds them to a plant; an administrator adds them to its stock.
 */
import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Progress, Select, Table, Tabs, Tag, Typography, Upload } from 'antd';
import { CheckCircleTwoTone, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { batchFileError, errorMessageKey, pnSchema, ruleErrorKey, type CollectorDetail, type CollectorSheetDat, type CollectorSheetResult } from '@sunwatch/protocol';
import { ConnectionInfo } from './ConnectionInfo';
import { api } from '../../../app/api';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { uploadAction } from '../../../app/upload';
import { responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { dataloggerKeys } from '../api/keys';
import { DIALOG_Z } from '../model/layers';
import { useDataloggerMutation, usePlantChoices } from '../api/queries';
import { useDataloggerAbilities } from '../model/abilities';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

type TabKey = 'single' | 'batch';
/** A plant chosen before the dialog opens (the plant page's "Add datalogger"). */
type PresetPlant = { pid: number; name: string };

function PlantPicker({ value, onChange, testId, preset }: { value?: number; onChange: (v: number) => void; testId: string; preset?: PresetPlant }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const plants = usePlantChoices(name);
  return (
    <Select
      showSearch
      filterOption={false}
      value={value}
      onChange={onChange}
      onSearch={setName}
      loading={plants.isFetching}
      placeholder={t('dataloggers:add.plantSearch')}
      options={[
        ...(preset && !plants.data?.plant.some((p) => p.pid === preset.pid) ? [{ value: preset.pid, label: preset.name }] : []),
        ...(plants.data?.plant ?? []).map((p) => ({ value: p.pid, label: p.name })),
      ]}
      data-testid={testId}
    />
  );
}

function SingleAdd({ preset }: { preset?: PresetPlant }) {
  const { t } = useTranslation();
  const add = useDataloggerMutation('addCollectorToPlant');
  const [plantid, setPlantid] = useState<number | undefined>(preset?.pid);
  const [pn, setPn] = useState('');
  const [alias, setAlias] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<CollectorDetail>();
  const pnError = ruleErrorKey(pnSchema, pn.trim());

  const submit = async () => {
    setTouched(true);
    setError(undefined);
    if (!plantid) return setError(t('dataloggers:add.plantRequired'));
    if (pnError) return;
    const p = pn.trim();
    try {
      await add.mutateAsync({ plantid, pn: p, alias: alias.trim() || undefined });
      void notice().success(t('dataloggers:add.added', { pn: p }));
      setAdded(await api.call('queryCollectorDetail', { pn: p }));
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  if (added) {
    return (
      <Flex vertical gap={12}>
        <Alert type="success" showIcon message={t('dataloggers:add.added', { pn: added.pn })} data-testid="dl-add-done" />
        <Typography.Title level={5}>{t('dataloggers:add.connection')}</Typography.Title>
        <ConnectionInfo detail={added} />
      </Flex>
    );
  }
  return (
    <Form layout="vertical" onFinish={() => void submit()}>
      <Form.Item label={t('dataloggers:add.plant')} required>
        <PlantPicker value={plantid} onChange={setPlantid} testId="dl-add-plant" preset={preset} />
      </Form.Item>
      <Form.Item
        label={t('dataloggers:field.pn')}
        required
        validateStatus={touched || pn ? (pnError ? 'error' : 'success') : undefined}
        help={pn || touched ? (pnError ? ruleText(pnError) : t('dataloggers:add.pnValid')) : t('dataloggers:add.pnHint')}
      >
        <Input
          value={pn}
          onChange={(e) => setPn(e.target.value)}
          maxLength={18}
          autoComplete="off"
          suffix={pn && !pnError ? <CheckCircleTwoTone twoToneColor="#52c41a" /> : <span />}
          data-testid="dl-add-pn"
        />
      </Form.Item>
      <Form.Item label={t('dataloggers:field.alias')}>
        <Input value={alias} onChange={(e) => setAlias(e.target.value)} maxLength={128} data-testid="dl-add-alias" />
      </Form.Item>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="dl-add-error" />}
      <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="dl-add-submit">
        {t('dataloggers:add.submit')}
      </Button>
    </Form>
  );
}

function BatchAdd({ owner, preset }: { owner: boolean; preset?: PresetPlant }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const qc = useQueryClient();
  const [plantid, setPlantid] = useState<number | undefined>(preset?.pid);
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<number>();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<CollectorSheetDat>();

  const run = async () => {
    setError(undefined);
    setResult(undefined);
    if (owner && !plantid) return setError(t('dataloggers:add.plantRequired'));
    const key = batchFileError(file ?? null, 'datalogger');
    if (key || !file) return setError(ruleText(key ?? 'rules.file.required'));
    setUploading(true);
    setProgress(0);
    try {
      setResult(await uploadAction('addCollectorsBySheet', owner ? { plantid } : {}, file, file.name, { onProgress: setProgress }));
    } catch (e) {
      setError(apiErrorText(e));
    } finally {
      setUploading(false);
      void qc.invalidateQueries({ queryKey: dataloggerKeys.all });
    }
  };

  const columns = [
    { key: 'row', title: t('dataloggers:add.row'), dataIndex: 'row', width: 64 },
    { key: 'pn', title: t('dataloggers:field.pn'), dataIndex: 'pn' },
    { key: 'alias', title: t('dataloggers:field.alias'), dataIndex: 'alias' },
    {
      key: 'result',
      title: t('dataloggers:add.result'),
      render: (_: unknown, r: CollectorSheetResult) =>
        r.err === 0 ? (
          <Tag color="green">{t('dataloggers:add.ok')}</Tag>
        ) : (
          <Typography.Text type="danger" data-err={r.err}>
            {r.msg || t(errorMessageKey(r.err), { ns: 'errors' })} ({r.err})
          </Typography.Text>
        ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      {owner ? (
        <Form layout="vertical">
          <Form.Item label={t('dataloggers:add.plant')} required style={{ marginBottom: 0 }}>
            <PlantPicker value={plantid} onChange={setPlantid} testId="dl-batch-plant" preset={preset} />
          </Form.Item>
        </Form>
      ) : (
        <Typography.Text type="secondary">{t('dataloggers:add.stockHint')}</Typography.Text>
      )}
      <Typography.Text type="secondary">{t('dataloggers:add.sheetHint')}</Typography.Text>
      <Upload
        accept=".xlsx"
        maxCount={1}
        beforeUpload={(f) => {
          setFile(f);
          const key = batchFileError(f, 'datalogger');
          setError(key ? ruleText(key) : undefined);
          return false;
        }}
        onRemove={() => setFile(undefined)}
        fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
        data-testid="dl-batch-upload"
      >
        <Button icon={<UploadOutlined />}>{t('dataloggers:add.chooseFile')}</Button>
      </Upload>
      {progress !== undefined && uploading && <Progress percent={progress} size="small" data-testid="dl-batch-progress" />}
      <div>
        <Button type="primary" loading={uploading} onClick={() => void run()} data-testid="dl-batch-run">
          {t('dataloggers:add.upload')}
        </Button>
      </div>
      {error && <Alert type="error" showIcon message={error} data-testid="dl-batch-error" />}
      {result && (
        <Flex vertical gap={8} data-testid="dl-batch-result">
          <Alert
            type={result.failed === 0 ? 'success' : result.ok === 0 ? 'error' : 'warning'}
            showIcon
            message={t('dataloggers:add.summary', { ok: result.ok, failed: result.failed, total: result.total })}
          />
          <Table<CollectorSheetResult>
            size="small"
            rowKey={(r) => `${r.row}:${r.pn}`}
            dataSource={result.result}
            pagination={result.result.length > 10 ? { pageSize: 10 } : false}
            {...responsiveTable(columns, phone, 2)}
          />
        </Flex>
      )}
    </Flex>
  );
}

export default function AddDataloggerDialog({ initialTab, onClose, plant }: { initialTab: TabKey; onClose: () => void; plant?: PresetPlant }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const abilities = useDataloggerAbilities();
  // a single datalogger is bound to a plant by its owner; administrators add to their stock in batches
  // (one at a time from the account list's "add to stock")
  const owner = abilities.role === 0;
  const tabs: TabKey[] = owner ? ['single', 'batch'] : ['batch'];
  const [tab, setTab] = useState<TabKey>(tabs.includes(initialTab) ? initialTab : tabs[0]!);
  return (
    <DraggableModal
      open
      zIndex={DIALOG_Z}
      title={t('dataloggers:add.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('dataloggers:actions.close')}</Button>}
      destroyOnHidden
      width={phone ? '100%' : 680}
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0 } : undefined}
      data-testid="dl-add-dialog"
    >
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as TabKey)}
        items={tabs.map((k) => ({
          key: k,
          label: t(k === 'single' ? 'dataloggers:add.tabSingle' : 'dataloggers:add.tabBatch'),
          children: k === 'single' ? <SingleAdd preset={plant} /> : <BatchAdd owner={owner} preset={plant} />,
        }))}
      />
    </DraggableModal>
  );
}
