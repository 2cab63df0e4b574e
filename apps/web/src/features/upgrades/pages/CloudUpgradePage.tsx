/**
 * adminNew `setting/upgrade`, "Cloud upgrade" (issue 13; spec §2): start an upgrade of many
 * dataloggers or devices (a firmware, its type and, for devices, the baud rate and device type
 * code; the targets picked from the server-paged list of the caller's dataloggers, or a filter
 * with the number it covers), confirm, then follow the batch's progress (its tasks created page by
 * page for a fleet-sized filter, then ended) and the task list with live progress.
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Flex,
  Input,
  InputNumber,
  Segmented,
  Select,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { accessFor } from '../../../app/access';
import { apiErrorText, notice, showApiError } from '../../../app/notify';
import { useSession } from '../../../app/use-session';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useStartBatch, useTargetDataloggers, type TaskListParams } from '../api/queries';
import { FIELD, FirmwareFields, type FirmwareChoice } from '../components/FirmwareFields';
import { TASK_PAGE_SIZES, TaskTable } from '../components/TaskTable';
import { BatchProgress } from '../components/BatchProgress';
import {
  MAX_SELECTION,
  batchFormProblem,
  batchParams,
  isDeviceFirmware,
  parsePnList,
  retKey,
  type BatchForm,
} from '../model/status';

const STATUS_FILTERS = [0, 1, 2, 3, 4, 5] as const;

function TargetPicker({ selection, onSelection }: { selection: string[]; onSelection: (pns: string[]) => void }) {
  const { t } = useTranslation('upgrades');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ page: 0, pagesize: 10 });
  const q = useTargetDataloggers({ ...page, ...(search.trim() ? { search: search.trim() } : {}) });
  return (
    <Flex vertical gap={8} data-testid="upg-targets">
      <Input.Search
        allowClear
        placeholder={t('start.searchPn')}
        onSearch={(v) => {
          setSearch(v);
          setPage((p) => ({ ...p, page: 0 }));
        }}
        data-testid="upg-target-search"
      />
      {q.isError ? <Alert type="error" showIcon message={apiErrorText(q.error)} /> : null}
      <Table
        size="small"
        rowKey="pn"
        loading={q.isLoading}
        dataSource={q.data?.collector ?? []}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selection,
          preserveSelectedRowKeys: true,
          onChange: (keys) => onSelection(keys.map(String)),
        }}
        columns={[
          { key: 'pn', title: t('task.pn'), dataIndex: 'pn' },
          { key: 'alias', title: t('start.alias'), dataIndex: 'alias' },
          { key: 'model', title: t('start.model'), dataIndex: 'model' },
          { key: 'version', title: t('start.version'), dataIndex: 'fireware' },
          {
            key: 'status',
            title: t('start.online'),
            render: (_, r) => (
              <Tag color={r.status === 0 ? 'success' : 'default'}>
                {t(r.status === 0 ? 'start.isOnline' : 'start.isOffline')}
              </Tag>
            ),
          },
        ]}
        pagination={{
          current: page.page + 1,
          pageSize: page.pagesize,
          total: q.data?.total ?? 0,
          size: 'small',
          showTotal: (n) => t('task.total', { count: n }),
          onChange: (c, s) => setPage({ page: s !== page.pagesize ? 0 : c - 1, pagesize: s }),
        }}
      />
      <Input.TextArea
        rows={2}
        placeholder={t('start.pastePns')}
        onBlur={(e) => {
          const pasted = parsePnList(e.target.value);
          if (pasted.length) onSelection([...new Set([...selection, ...pasted])]);
          e.target.value = '';
        }}
        data-testid="upg-paste"
      />
      <Typography.Text data-testid="upg-selected-count" type={selection.length > MAX_SELECTION ? 'danger' : undefined}>
        {t('start.selected', { count: selection.length, max: MAX_SELECTION })}
      </Typography.Text>
    </Flex>
  );
}

function FilterTargets({ form, onForm }: { form: BatchForm; onForm: (f: BatchForm) => void }) {
  const { t } = useTranslation('upgrades');
  // The number the filter covers: the caller's dataloggers of that plant and state.
  const q = useTargetDataloggers({
    page: 0,
    pagesize: 1,
    ...(form.plantid ? { pid: form.plantid } : {}),
    ...(form.status !== undefined ? { status: form.status } : {}),
  });
  const narrowed = !!form.model?.trim() || !!form.version?.trim();
  return (
    <Flex vertical gap={8} data-testid="upg-filter">
      <Flex wrap gap={8}>
        <label style={FIELD}>
          {t('start.plantId')}
          <InputNumber min={1} value={form.plantid} onChange={(v) => onForm({ ...form, plantid: v ?? undefined })} />
        </label>
        <label style={FIELD}>
          {t('start.online')}
          <Select
            style={{ minWidth: 140 }}
            allowClear
            value={form.status}
            onChange={(v: number | undefined) => onForm({ ...form, status: v })}
            options={[
              { value: 0, label: t('start.isOnline') },
              { value: 1, label: t('start.isOffline') },
            ]}
          />
        </label>
        <label style={FIELD}>
          {t('start.model')}
          <Input value={form.model} onChange={(e) => onForm({ ...form, model: e.target.value })} maxLength={64} />
        </label>
        <label style={FIELD}>
          {t('start.version')}
          <Input value={form.version} onChange={(e) => onForm({ ...form, version: e.target.value })} maxLength={64} />
        </label>
      </Flex>
      <Typography.Text data-testid="upg-filter-count">
        {q.data ? t(narrowed ? 'start.coversAtMost' : 'start.covers', { count: q.data.total }) : '…'}
      </Typography.Text>
    </Flex>
  );
}

function StartCard() {
  const { t } = useTranslation('upgrades');
  const confirm = useConfirm();
  const start = useStartBatch();
  const [fw, setFw] = useState<FirmwareChoice>({ firmware: '', type: 0 });
  const [form, setForm] = useState<BatchForm>({ firmware: '', type: 0, mode: 'selection', selection: [] });
  const [last, setLast] = useState<{
    batch: number;
    total: number;
    started: number;
    waiting: number;
    refused: Array<{ pn: string; sn: string; ret: number; err: number }>;
  }>();
  const full: BatchForm = { ...form, ...fw };
  const problem = batchFormProblem(full);
  const submit = () =>
    confirm({
      title: t('start.confirmTitle'),
      content:
        full.mode === 'selection'
          ? t('start.confirmSelection', { count: full.selection.length })
          : t('start.confirmFilter'),
      okText: t('start.submit'),
      onOk: async () => {
        try {
          const r = await start.mutateAsync(batchParams(full));
          setLast(r);
          if (r.started + r.waiting > 0) void notice().success(t('start.started', { batch: r.batch }));
          else void notice().error(t('ret.failedToStart'));
        } catch (e) {
          showApiError(e);
        }
      },
    });
  return (
    <Card title={t('start.title')} size="small" data-testid="upg-start">
      <Flex vertical gap={12}>
        <Flex wrap gap={12} style={{ maxWidth: 720 }}>
          <FirmwareFields value={fw} onChange={setFw} library />
          {isDeviceFirmware(fw.type) ? (
            <label style={FIELD}>
              {t('start.devcode')}
              <InputNumber
                min={0}
                value={form.devcode}
                onChange={(v) => setForm({ ...form, devcode: v ?? undefined })}
                data-testid="upg-devcode"
              />
            </label>
          ) : null}
        </Flex>
        <Segmented
          value={form.mode}
          onChange={(mode) => setForm({ ...form, mode: mode as BatchForm['mode'] })}
          options={[
            { value: 'selection', label: t('start.bySelection') },
            { value: 'filter', label: t('start.byFilter') },
          ]}
          data-testid="upg-mode"
        />
        {form.mode === 'selection' ? (
          <TargetPicker selection={[...form.selection]} onSelection={(selection) => setForm({ ...form, selection })} />
        ) : (
          <FilterTargets
            form={full}
            onForm={(f) => setForm({ ...form, ...f, firmware: form.firmware, type: form.type })}
          />
        )}
        {problem ? (
          <Typography.Text type="secondary">{t(`start.invalid.${problem}`, { max: MAX_SELECTION })}</Typography.Text>
        ) : null}
        <div>
          <Button
            type="primary"
            disabled={!!problem}
            loading={start.isPending}
            onClick={submit}
            data-testid="upg-submit"
          >
            {t('start.submit')}
          </Button>
        </div>
        {last ? (
          <Alert
            type={last.refused.length ? 'warning' : 'success'}
            showIcon
            data-testid="upg-batch-result"
            message={t('start.result', {
              batch: last.batch,
              total: last.total,
              started: last.started,
              waiting: last.waiting,
              refused: last.refused.length,
            })}
            description={
              last.refused.length ? (
                <Flex vertical>
                  {last.refused.slice(0, 20).map((r) => (
                    <Typography.Text key={`${r.pn}:${r.sn}`}>
                      {r.pn}
                      {r.sn ? ` / ${r.sn}` : ''}: {r.err ? t('ret.error', { code: r.err }) : t(`ret.${retKey(r.ret)}`)}
                    </Typography.Text>
                  ))}
                </Flex>
              ) : undefined
            }
          />
        ) : null}
        {last ? <BatchProgress key={last.batch} batch={last.batch} /> : null}
      </Flex>
    </Card>
  );
}

function TasksCard({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('upgrades');
  const [params, setParams] = useState<TaskListParams>({ page: 0, pagesize: TASK_PAGE_SIZES[0] });
  const set = (patch: Partial<TaskListParams>) => setParams((p) => ({ ...p, ...patch, page: 0 }));
  return (
    <Card title={t('task.title')} size="small">
      <Flex vertical gap={8}>
        <Flex wrap gap={8}>
          <Input.Search
            allowClear
            placeholder={t('task.pn')}
            style={{ maxWidth: 220 }}
            onSearch={(v) => set({ pn: v.trim() || undefined })}
            data-testid="upg-filter-pn"
          />
          <Select
            allowClear
            placeholder={t('task.status')}
            style={{ minWidth: 160 }}
            value={params.status}
            onChange={(v: number | undefined) => set({ status: v })}
            options={STATUS_FILTERS.map((s) => ({
              value: s,
              label: t(`status.${['running', 'exception', 'failed', 'success', 'cancelled', 'notInUpgrade'][s]}`),
            }))}
            data-testid="upg-filter-status"
          />
          <InputNumber
            min={1}
            placeholder={t('task.batch')}
            value={params.batch}
            onChange={(v) => set({ batch: v ?? undefined })}
            data-testid="upg-filter-batch"
          />
          <DatePicker.RangePicker
            onChange={(r: [Dayjs | null, Dayjs | null] | null) =>
              set({
                sdate: r?.[0]?.format('YYYY-MM-DD') ?? undefined,
                edate: r?.[1]?.format('YYYY-MM-DD') ?? undefined,
              })
            }
          />
        </Flex>
        <TaskTable
          params={params}
          canWrite={canWrite}
          onPage={(page, pagesize) => setParams((p) => ({ ...p, page, pagesize }))}
        />
      </Flex>
    </Card>
  );
}

export default function CloudUpgradePage() {
  const session = useSession();
  const access = accessFor(session);
  const canStart = !access.readOnly && access.hasButton('firmware_upload');
  const canCancel = !access.readOnly && access.hasModule('device_manag');
  return (
    <Flex vertical gap={16} data-testid="upg-page">
      {canStart ? <StartCard /> : null}
      <TasksCard canWrite={canCancel} />
    </Flex>
  );
}
