/**
 * How long the logs keep (issue 14): the days of the action log and of the datalogger log, the
 * operator's setting or the environment's default, and the last prune run. Issue 16 adds the raw
 * samples (SAMPLE_RETENTION_DAYS bounds; day totals are kept for ever). Saving asks nothing:
 * rows older than the new value go at the next hourly run (said next to the button).
 */
import { useEffect, useState } from 'react';
import { Button, Card, Flex, InputNumber, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOG_RETENTION_DAYS, SAMPLE_RETENTION_DAYS, type LogRetention } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { useLogRetention, useSetLogRetention } from '../api/queries';
import { when } from './when';

type Key = 'actionLogDays' | 'collectorLogDays' | 'sampleDays';
const KEYS: readonly Key[] = ['actionLogDays', 'collectorLogDays', 'sampleDays'];

export function RetentionPanel() {
  const { t } = useTranslation('operatorLogs');
  const q = useLogRetention();
  const save = useSetLogRetention();
  const [draft, setDraft] = useState<Record<Key, number | null>>({
    actionLogDays: null,
    collectorLogDays: null,
    sampleDays: null,
  });
  const data: LogRetention | undefined = q.data;
  useEffect(() => {
    if (data)
      setDraft({
        actionLogDays: data.actionLogDays,
        collectorLogDays: data.collectorLogDays,
        sampleDays: data.sampleDays,
      });
  }, [data]);
  if (!data) return null;
  const edited = (key: Key) => draft[key] !== null && draft[key] !== data[key];
  const changed = KEYS.some(edited);
  const submit = async () => {
    try {
      const p: Partial<Record<Key, number>> = {};
      for (const k of KEYS) if (edited(k)) p[k] = draft[k]!;
      await save.mutateAsync(p);
      void notice().success(t('retention.saved'));
    } catch (e) {
      showApiError(e);
    }
  };
  const field = (key: Key, source: 'setting' | 'default', def: number) => (
    <Space direction="vertical" size={0}>
      <Typography.Text>{t(`retention.${key}`)}</Typography.Text>
      <InputNumber<number>
        min={key === 'sampleDays' ? SAMPLE_RETENTION_DAYS.min : LOG_RETENTION_DAYS.min}
        max={key === 'sampleDays' ? SAMPLE_RETENTION_DAYS.max : LOG_RETENTION_DAYS.max}
        precision={0}
        value={draft[key]}
        onChange={(v) => setDraft((d) => ({ ...d, [key]: v }))}
        addonAfter={t('retention.days')}
        style={{ width: 170 }}
        aria-label={t(`retention.${key}`)}
        data-testid={`retention-${key}`}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {source === 'setting' ? t('retention.fromSetting', { n: def }) : t('retention.fromDefault')}
      </Typography.Text>
    </Space>
  );
  return (
    <Card size="small" title={t('retention.title')} data-testid="retention-panel">
      <Flex wrap gap={16} align="flex-end">
        {field('actionLogDays', data.source.actionLog, data.defaults.actionLogDays)}
        {field('collectorLogDays', data.source.collectorLog, data.defaults.collectorLogDays)}
        {field('sampleDays', data.source.samples, data.defaults.sampleDays)}
        <Space direction="vertical" size={4}>
          <Button
            type="primary"
            disabled={!changed}
            loading={save.isPending}
            onClick={() => void submit()}
            data-testid="retention-save"
          >
            {t('retention.save')}
          </Button>
        </Space>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
        {t('retention.hint')} {t('retention.sampleHint')}{' '}
        {data.lastPruneAt !== null ? t('retention.lastRun', { when: when(data.lastPruneAt) }) : t('retention.neverRun')}
        {data.lastPruneError && (
          <Typography.Text type="danger"> {t('retention.lastError', { error: data.lastPruneError })}</Typography.Text>
        )}
      </Typography.Paragraph>
    </Card>
  );
}
