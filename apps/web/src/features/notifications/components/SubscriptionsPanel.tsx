/**
 * The caller's e-mail push subscriptions (spec §3): one card each with the e-mail, plants, alarm
 * types, reports, mail language, on/off and last change; add, edit, delete (confirmed). An account
 * keeps at most EMAIL_PUSH_MAX_PER_ACCOUNT subscriptions, so one server page holds them all.
 * Both settings pages show the same subscriptions; the `focus` puts that page's kind of mail
 * first and is what a new subscription starts with. Cards, not a table, and the dialogs load on
 * demand: the first load stays within the page budget (bench/web-budget), and a phone shows
 * every field without scrolling sideways.
 */
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { Button, Card, Col, Empty, Flex, Row, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EMAIL_PUSH_MAX_PER_ACCOUNT, LOCALE_NAMES, type Locale } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { ListStates } from '../../../components/list';
import { useDeleteSubscription, useSubscriptions, type SubscriptionRow } from '../api/queries';
import { ALARM_LEVEL_KEYS, type AlarmLevel, type SubscriptionFocus } from '../subscription-form';

const SubscriptionFormModal = lazy(() =>
  import('./SubscriptionFormModal').then((m) => ({ default: m.SubscriptionFormModal })),
);
const ConfirmDeleteModal = lazy(() => import('../../../components/confirm/ConfirmDeleteModal'));

type Editing = { open: false } | { open: true; row?: SubscriptionRow };

const LEVEL_COLORS: Record<AlarmLevel, string> = { 0: 'gold', 1: 'orange', 2: 'red', 3: 'default' };

export function SubscriptionsPanel({ focus }: { focus: SubscriptionFocus }) {
  const { t } = useTranslation();
  const list = useSubscriptions({ page: 0, pagesize: EMAIL_PUSH_MAX_PER_ACCOUNT });
  const del = useDeleteSubscription();
  const [editing, setEditingState] = useState<Editing>({ open: false });
  const [formLoaded, setFormLoaded] = useState(false);
  const setEditing = (next: Editing) => {
    if (next.open) setFormLoaded(true);
    setEditingState(next);
  };
  const [deleting, setDeleting] = useState<SubscriptionRow>();
  const [deleteLoaded, setDeleteLoaded] = useState(false);

  const remove = async (row: SubscriptionRow) => {
    try {
      await del.mutateAsync(row.id);
    } catch (e) {
      showApiError(e);
      return;
    } finally {
      setDeleting(undefined);
    }
    void notice().success(t('notifications:deleted', { email: row.email }));
  };

  const rows = list.data?.push ?? [];
  const full = rows.length >= EMAIL_PUSH_MAX_PER_ACCOUNT;
  const none = <Typography.Text type="secondary">{t('notifications:none')}</Typography.Text>;
  const levels = (r: SubscriptionRow) =>
    r.level.length ? (
      <Flex wrap gap={4} data-testid="subscription-row-level">
        {r.level.map((l) => (
          <Tag key={l} color={LEVEL_COLORS[l as AlarmLevel]} style={{ marginInlineEnd: 0 }}>
            {t(`notifications:level.${ALARM_LEVEL_KEYS[l as AlarmLevel]}`)}
          </Tag>
        ))}
      </Flex>
    ) : (
      none
    );
  const reports = (r: SubscriptionRow) =>
    r.report.length ? (
      <Flex wrap gap={4} data-testid="subscription-row-report">
        {r.report.map((x) => (
          <Tag key={x} color="blue" style={{ marginInlineEnd: 0 }}>
            {t(`notifications:report.${x}`)}
          </Tag>
        ))}
      </Flex>
    ) : (
      none
    );
  const field = (label: string, value: ReactNode) => (
    <Flex gap={8} align="baseline" wrap>
      <Typography.Text type="secondary" style={{ minWidth: 110 }}>
        {label}
      </Typography.Text>
      <div style={{ flex: 1, minWidth: 0 }}>{value}</div>
    </Flex>
  );
  const alarmField = (r: SubscriptionRow) => field(t('notifications:field.level'), levels(r));
  const reportField = (r: SubscriptionRow) => field(t('notifications:field.report'), reports(r));

  return (
    <Card title={t(`notifications:page.${focus}.title`)} data-testid={`subscriptions-${focus}`}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Flex wrap gap={12} justify="space-between" align="center">
          <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 720 }}>
            {t(`notifications:page.${focus}.intro`)}
          </Typography.Paragraph>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={full}
            title={full ? t('notifications:full', { max: EMAIL_PUSH_MAX_PER_ACCOUNT }) : undefined}
            onClick={() => setEditing({ open: true })}
            data-testid="subscription-add"
          >
            {t('notifications:add')}
          </Button>
        </Flex>
        <ListStates query={list} errorTitle={t('notifications:loadFailed')}>
          {list.isPending ? (
            <Card loading size="small" />
          ) : rows.length === 0 ? (
            <Empty description={t('notifications:empty')} />
          ) : (
            <Row gutter={[16, 16]} data-testid="subscription-list">
              {rows.map((r) => (
                <Col key={r.id} xs={24} lg={12} xxl={8}>
                  <Card
                    size="small"
                    data-testid="subscription-row"
                    title={
                      <Typography.Text strong data-testid="subscription-row-email" style={{ whiteSpace: 'normal', wordBreak: 'break-all' }}>
                        {r.email}
                      </Typography.Text>
                    }
                    extra={
                      <Tag color={r.enable ? 'green' : 'default'} data-testid="subscription-row-enable" data-enabled={r.enable} style={{ marginInlineEnd: 0 }}>
                        {t(r.enable ? 'notifications:status.enabled' : 'notifications:status.disabled')}
                      </Tag>
                    }
                    actions={[
                      <Button
                        key="edit"
                        type="link"
                        size="small"
                        icon={<EditOutlined />}
                        aria-label={t('notifications:editOf', { email: r.email })}
                        onClick={() => setEditing({ open: true, row: r })}
                        data-testid="subscription-edit"
                      >
                        {t('notifications:edit')}
                      </Button>,
                      <Button
                        key="delete"
                        type="link"
                        size="small"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('notifications:deleteOf', { email: r.email })}
                        onClick={() => {
                          setDeleteLoaded(true);
                          setDeleting(r);
                        }}
                        data-testid="subscription-delete"
                      >
                        {t('notifications:delete')}
                      </Button>,
                    ]}
                  >
                    <Space direction="vertical" size={6} style={{ width: '100%' }}>
                      {field(
                        t('notifications:field.plants'),
                        <Flex wrap gap={4} data-testid="subscription-row-plants">
                          {r.plants.map((p) => (
                            <Tag key={p.pid} style={{ marginInlineEnd: 0 }}>
                              {p.pname}
                            </Tag>
                          ))}
                        </Flex>,
                      )}
                      {focus === 'alarm' ? alarmField(r) : reportField(r)}
                      {focus === 'alarm' ? reportField(r) : alarmField(r)}
                      {field(t('notifications:field.language'), LOCALE_NAMES[r.language as Locale] ?? r.language)}
                      {field(t('notifications:field.updated'), r.updateTime || '--')}
                    </Space>
                  </Card>
                </Col>
              ))}
            </Row>
          )}
        </ListStates>
        {rows.length > 0 && (
          <Typography.Text type="secondary" data-testid="subscription-total">
            {t('notifications:total', { n: list.data?.total ?? rows.length })}
          </Typography.Text>
        )}
      </Space>
      {formLoaded && (
        <Suspense fallback={null}>
          <SubscriptionFormModal
            open={editing.open}
            focus={focus}
            row={editing.open ? editing.row : undefined}
            onClose={() => setEditing({ open: false })}
          />
        </Suspense>
      )}
      {deleteLoaded && (
        <Suspense fallback={null}>
          <ConfirmDeleteModal
            open={deleting !== undefined}
            title={deleting ? t('notifications:deleteOf', { email: deleting.email }) : ''}
            text={deleting ? t('notifications:deleteConfirm', { email: deleting.email }) : ''}
            okText={t('notifications:delete')}
            cancelText={t('notifications:form.cancel')}
            pending={del.isPending}
            onConfirm={() => deleting && void remove(deleting)}
            onClose={() => setDeleting(undefined)}
          />
        </Suspense>
      )}
    </Card>
  );
}
