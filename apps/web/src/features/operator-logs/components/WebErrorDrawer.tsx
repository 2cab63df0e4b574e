/** The drawer of one web error group: its events (latest first) and the chosen one's stack and breadcrumb trail. */
import { useEffect, useState } from 'react';
import { Descriptions, Drawer, Empty, List, Select, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WebErrorGroupRow } from '@sunwatch/protocol';
import { useIsPhone } from '../../../components/responsive';
import { useWebErrorEvent, useWebErrorEvents, type WebErrorGroupsParams } from '../api/queries';
import { when } from './when';

const pre = { whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12, margin: 0 } as const;

export function WebErrorDrawer({
  group,
  filters,
  onClose,
}: {
  group: WebErrorGroupRow | undefined;
  filters: Omit<WebErrorGroupsParams, 'page' | 'pagesize'>;
  onClose: () => void;
}) {
  const { t } = useTranslation('operatorLogs');
  const phone = useIsPhone();
  const events = useWebErrorEvents(group?.fingerprint, filters);
  const [chosen, setChosen] = useState<number>();
  useEffect(() => setChosen(group?.lastId), [group]);
  const detail = useWebErrorEvent(group ? chosen : undefined);
  const e = detail.data;

  return (
    <Drawer
      open={group !== undefined}
      onClose={onClose}
      title={group ? t(`web.kinds.${group.kind}`) : ''}
      width={phone ? '100%' : 640}
      destroyOnHidden
      data-testid="web-error-drawer"
    >
      {group && (
        <>
          <Typography.Paragraph strong style={{ wordBreak: 'break-word' }}>
            {group.message}
          </Typography.Paragraph>
          <Select<number>
            value={chosen}
            onChange={setChosen}
            loading={events.isLoading}
            style={{ width: '100%', marginBottom: 12 }}
            aria-label={t('web.event')}
            data-testid="web-error-events"
            options={(events.data?.event ?? []).map((ev) => ({
              value: ev.id,
              label: `${when(ev.lastSeen)} · ${ev.usr || t('anonymous')} · ×${ev.count}`,
            }))}
          />
          {detail.isLoading && <Spin />}
          {e && (
            <>
              <Descriptions size="small" column={1} bordered>
                <Descriptions.Item label={t('web.col.lastSeen')}>{when(e.lastSeen)}</Descriptions.Item>
                <Descriptions.Item label={t('web.col.firstSeen')}>{when(e.firstSeen)}</Descriptions.Item>
                <Descriptions.Item label={t('web.col.count')}>{e.count}</Descriptions.Item>
                <Descriptions.Item label={t('col.usr')}>
                  {e.usr || t('anonymous')}
                  {e.accountId !== null && <Typography.Text type="secondary"> (uid {e.accountId})</Typography.Text>}
                </Descriptions.Item>
                <Descriptions.Item label={t('web.source')}>
                  <Tag>{t(`web.sources.${e.source}`)}</Tag>
                </Descriptions.Item>
                {e.durationMs !== null && (
                  <Descriptions.Item label={t('col.duration')}>{t('ms', { n: e.durationMs })}</Descriptions.Item>
                )}
                <Descriptions.Item label={t('web.page')}>
                  <Typography.Text style={{ wordBreak: 'break-all' }}>{e.url || e.route || '—'}</Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label={t('web.col.release')}>{e.release || '—'}</Descriptions.Item>
                <Descriptions.Item label={t('col.client')}>
                  <Typography.Text style={{ wordBreak: 'break-all' }}>{e.userAgent || '—'}</Typography.Text>
                </Descriptions.Item>
              </Descriptions>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                {t('web.stack')}
              </Typography.Title>
              {e.stack ? (
                <pre style={pre} data-testid="web-error-stack">
                  {e.stack}
                </pre>
              ) : (
                <Typography.Text type="secondary">{t('web.noStack')}</Typography.Text>
              )}
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                {t('web.breadcrumbs')}
              </Typography.Title>
              {e.breadcrumbs.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.noBreadcrumbs')} />
              ) : (
                <List
                  size="small"
                  data-testid="web-error-breadcrumbs"
                  dataSource={e.breadcrumbs}
                  renderItem={(b) => (
                    <List.Item>
                      <Typography.Text style={{ wordBreak: 'break-word' }}>
                        <Tag>{t(`web.crumbs.${b.type}`)}</Tag>
                        {b.message}
                      </Typography.Text>
                    </List.Item>
                  )}
                />
              )}
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
