/**
 * The account's alarm filter rules (issue 11): name, on/off, time slot, what they match (device
 * types, plants, devices, alarm types, codes, description) and their effect (not notified,
 * hidden from the lists). Accounts that may keep rules add, edit, switch and delete them;
 * viewers see them read-only.
 */
import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Flex, Popconfirm, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { AlarmRuleRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText, notice } from '../../../app/notify';
import { ListStates, emptyLocale, responsiveTable, tableLoading } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { useAlarmRules, useDeleteRule, useSaveRule } from '../api/queries';
import { levelKey } from './AlarmTags';

const RuleDialog = lazy(() => import('./RuleDialog'));

/** What a rule matches, as short texts ("any" parts left out). */
export function ruleScope(r: AlarmRuleRow, t: (k: string, o?: Record<string, unknown>) => string): string[] {
  const out: string[] = [];
  if (r.atype.length) out.push(r.atype.map((a) => t(`alarms:atype.${a}`)).join(', '));
  if (r.level.length) out.push(r.level.map((l) => t(levelKey(l))).join(', '));
  if (r.pid.length) out.push(t('alarms:rules.plantsN', { n: r.pid.length }));
  if (r.device.length) out.push(r.device.join(', '));
  if (r.code.length) out.push(`${t('alarms:field.code')} ${r.code.join(', ')}`);
  if (r.desc) out.push(`“${r.desc}”`);
  return out;
}

export default function RulesPanel({ editable, plants }: { editable: boolean; plants: boolean }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const rules = useAlarmRules({ page: page.current - 1, pagesize: page.pageSize });
  const save = useSaveRule();
  const del = useDeleteRule();
  const [editing, setEditing] = useState<AlarmRuleRow | 'new'>();

  const toggle = async (r: AlarmRuleRow, enable: boolean) => {
    try {
      await save.mutateAsync({ id: r.id, fields: { name: r.name, enable: enable ? 1 : 0 } });
    } catch (e) {
      void notice().error(apiErrorText(e));
    }
  };
  const remove = async (r: AlarmRuleRow) => {
    try {
      await del.mutateAsync(r.id);
      void notice().success(t('alarms:rules.deleted'));
    } catch (e) {
      void notice().error(apiErrorText(e));
    }
  };

  const columns: TableColumnsType<AlarmRuleRow> = [
    { title: t('alarms:rules.field.name'), key: 'name', render: (_, r) => <span data-testid="rule-name">{r.name}</span> },
    {
      title: t('alarms:rules.field.enable'),
      key: 'enable',
      render: (_, r) => (
        <Switch
          size="small"
          checked={r.enable === 1}
          disabled={!editable}
          onChange={(v) => void toggle(r, v)}
          aria-label={t('alarms:rules.field.enable')}
          data-testid={`rule-enable-${r.id}`}
        />
      ),
    },
    {
      title: t('alarms:rules.field.timeSlot'),
      key: 'slot',
      responsive: ['md'],
      render: (_, r) => (r.stime && r.etime ? `${r.stime}–${r.etime}` : t('alarms:rules.allDay')),
    },
    {
      title: t('alarms:rules.field.scope'),
      key: 'scope',
      render: (_, r) => {
        const parts = ruleScope(r, t);
        return parts.length ? (
          <Typography.Text style={{ maxWidth: 360 }} ellipsis={{ tooltip: parts.join(' · ') }}>
            {parts.join(' · ')}
          </Typography.Text>
        ) : (
          t('alarms:rules.any')
        );
      },
    },
    {
      title: t('alarms:rules.field.effect'),
      key: 'effect',
      render: (_, r) => (
        <Space size={[4, 4]} wrap>
          {r.mute === 1 && <Tag color="blue">{t('alarms:rules.mute')}</Tag>}
          {r.hide === 1 && <Tag color="purple">{t('alarms:rules.hide')}</Tag>}
        </Space>
      ),
    },
  ];
  if (editable) {
    columns.push({
      title: t('alarms:field.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={4}>
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(r)} aria-label={t('alarms:rules.edit')} data-testid={`rule-edit-${r.id}`} />
          <Popconfirm
            title={t('alarms:rules.confirmDelete', { name: r.name })}
            okText={t('alarms:rules.delete')}
            cancelText={t('alarms:cancel')}
            okButtonProps={{ danger: true, ...({ 'data-testid': 'rule-delete-ok' } as Record<`data-${string}`, string>) }}
            onConfirm={() => remove(r)}
          >
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('alarms:rules.delete')} data-testid={`rule-delete-${r.id}`} />
          </Popconfirm>
        </Space>
      ),
    });
  }

  return (
    <Flex vertical gap={12} data-testid="alarm-rules">
      <Alert type="info" showIcon message={t('alarms:rules.intro')} />
      {editable && (
        <Flex justify="flex-end">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="rule-add">
            {t('alarms:rules.add')}
          </Button>
        </Flex>
      )}
      <ListStates query={rules} errorTitle={t('alarms:rules.loadFailed')}>
        <Table<AlarmRuleRow>
          rowKey="id"
          size="middle"
          dataSource={rules.data?.rule ?? []}
          loading={tableLoading(rules)}
          locale={emptyLocale(t('alarms:rules.empty'))}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: rules.data?.total ?? 0,
            showTotal: (n) => t('alarms:rules.total', { n }),
            onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
          }}
          onRow={(r) => ({ 'data-rule-id': r.id }) as React.HTMLAttributes<HTMLElement>}
          {...responsiveTable(columns, phone, 1)}
        />
      </ListStates>
      <Suspense fallback={null}>
        {editing && <RuleDialog rule={editing === 'new' ? undefined : editing} plants={plants} onClose={() => setEditing(undefined)} />}
      </Suspense>
    </Flex>
  );
}
