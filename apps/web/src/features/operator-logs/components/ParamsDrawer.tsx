/** The detail drawer of one action-log call: who, when, where from, outcome, and its params as JSON. */
import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessageKey, type ActionLogRow } from '@sunwatch/protocol';
import { useIsPhone } from '../../../components/responsive';
import { paramsText } from '../model';
import { when } from './when';

export function ParamsDrawer({ row, onClose }: { row: ActionLogRow | undefined; onClose: () => void }) {
  const { t } = useTranslation('operatorLogs');
  const phone = useIsPhone();
  return (
    <Drawer
      open={row !== undefined}
      onClose={onClose}
      title={row?.action}
      width={phone ? '100%' : 560}
      destroyOnHidden
      data-testid="action-log-drawer"
    >
      {row && (
        <>
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t('col.time')}>{when(row.ts)}</Descriptions.Item>
            <Descriptions.Item label={t('col.usr')}>
              {row.usr || t('anonymous')}
              {row.accountId !== null && <Typography.Text type="secondary"> (uid {row.accountId})</Typography.Text>}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.err')}>
              {row.err === 0 ? (
                <Tag color="success">{t('resultOk')}</Tag>
              ) : (
                <Tag color="error">
                  {row.err} · {t(errorMessageKey(row.err), { ns: 'errors', defaultValue: String(row.err) })}
                </Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.duration')}>{t('ms', { n: row.durationMs })}</Descriptions.Item>
            <Descriptions.Item label={t('col.ip')}>{row.ip || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.client')}>
              <Typography.Text style={{ wordBreak: 'break-all' }}>{row.userAgent || '—'}</Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('params')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {typeof row.params === 'string' ? t('paramsCut') : t('paramsRedacted')}
          </Typography.Paragraph>
          <pre
            style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12, margin: 0 }}
            data-testid="action-log-params"
          >
            {paramsText(row.params)}
          </pre>
        </>
      )}
    </Drawer>
  );
}
