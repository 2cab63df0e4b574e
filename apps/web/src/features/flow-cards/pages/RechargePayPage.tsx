/**
 * setting/rechargePay (issue 15, old and new editions, every area that has it): the flow cards
 * (SIM cards) of the caller's cellular dataloggers. Counts per status on top (a click filters),
 * the 2G replacement notice (spec §9) when 2G cards are in the list, then the list on the
 * server (search PN or CCID, status, network, load count; state in the address bar) with CCID,
 * IMSI, operator, package, traffic used of the limit, the validity timeline and the status.
 * Cards are picked across pages; the batch rule of spec §5 (same card type, load count, area and
 * state) is checked as they are picked, with the reason when a pick is not allowed, and
 * "Recharge" opens the checkout for the picked cards. docs/money/flow-cards.md.
 */
import { useMemo, useState } from 'react';
import { Alert, Button, Card, Flex, InputNumber, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { CARD_STATUSES, NETWORK_TYPES, type GprsCollectorRow } from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { EnumSelect, FilterRow, ListSearch } from '../../../components/list/FilterRow';
import { PagedTable } from '../../../components/list/PagedTable';
import { accessFor } from '../../../app/access';
import { useSession } from '../../../app/use-session';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { useFlowCards } from '../api/queries';
import { DEFAULT_CHECKOUT, type CheckoutComponent } from '../checkout';
import { StatusSummary } from '../components/StatusSummary';
import { UsageBar, ValidityBar } from '../components/CardBars';
import {
  CARD_STATUS_COLORS,
  FLOW_CARD_LIST_SPEC,
  FLOW_CARD_PAGE_SIZES,
  flowCardListParams,
  isSunsetNetwork,
  selectionProblem,
  unselectableReason,
} from '../model';

export interface RechargePayPageProps {
  /** The checkout dialog opened by "Recharge" (default: the app's, see ../checkout.ts); null: none. */
  checkout?: CheckoutComponent | null;
}

export default function RechargePayPage({ checkout = DEFAULT_CHECKOUT }: RechargePayPageProps) {
  const { t } = useTranslation('flowCards');
  const [state, update] = useListState(FLOW_CARD_LIST_SPEC);
  const list = useFlowCards(flowCardListParams(state));
  const locale = bcp47(currentLocale());
  // The instant the bars are drawn for: the time of the page's data.
  const now = useMemo(() => Date.now(), [list.dataUpdatedAt]); // eslint-disable-line react-hooks/exhaustive-deps
  const [picked, setPicked] = useState<ReadonlyMap<string, GprsCollectorRow>>(new Map());
  const [checkoutOpen, setCheckoutOpen] = useState(false);
  const selected = [...picked.values()];
  const problem = selectionProblem(selected);
  // Paying is a settings right (the checkout's actions need system_settings); the list needs
  // device management (the route). A sub-administrator with the list only sees the cards.
  const canPay = accessFor(useSession()).hasModule('system_settings');
  const Checkout = canPay ? checkout : null;

  const pick = (rows: readonly GprsCollectorRow[], on: boolean) =>
    setPicked((prev) => {
      const next = new Map(prev);
      for (const r of rows) {
        if (on && unselectableReason(r) === '') next.set(r.pn, r);
        else next.delete(r.pn);
      }
      return next;
    });

  const area = (a: string) => (a === 'mainland' || a === 'international' ? t(`area.${a}`) : '—');
  const cardType = (c: string) => (c ? t(`cardType.${c}`, { defaultValue: c }) : '—');

  const columns: TableColumnsType<GprsCollectorRow> = [
    {
      title: t('col.pn'),
      key: 'pn',
      width: 150,
      render: (_: unknown, r) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text style={{ fontSize: 13 }}>{r.pn}</Typography.Text>
          {r.alias && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.alias}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('col.ccid'),
      key: 'ccid',
      width: 190,
      render: (_: unknown, r) =>
        r.gprs.ccid ? (
          <Space orientation="vertical" size={0}>
            <Typography.Text copyable style={{ fontSize: 12 }} data-testid="card-ccid">
              {r.gprs.ccid}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('imsi', { imsi: r.gprs.imsi || '—' })}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('noCcid')}</Typography.Text>
        ),
    },
    {
      title: t('col.operator'),
      key: 'operator',
      width: 170,
      render: (_: unknown, r) => (
        <Space orientation="vertical" size={0}>
          <span>{r.gprs.operator || '—'}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.gprs.package || '—'}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('col.network'),
      key: 'network',
      width: 120,
      render: (_: unknown, r) => (
        <Space orientation="vertical" size={2}>
          {r.gprs.network ? (
            <Tag color={isSunsetNetwork(r.gprs.network) ? 'red' : 'blue'} data-testid="card-network">
              {r.gprs.network}
            </Tag>
          ) : (
            '—'
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {cardType(r.gprs.cardType)} · {area(r.gprs.area)} · {t('loadN', { n: r.load })}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('col.traffic'),
      key: 'traffic',
      width: 150,
      render: (_: unknown, r) => <UsageBar row={r} locale={locale} />,
    },
    {
      title: t('col.validity'),
      key: 'validity',
      width: 180,
      render: (_: unknown, r) => <ValidityBar row={r} now={now} locale={locale} />,
    },
    {
      title: t('col.status'),
      key: 'status',
      width: 100,
      render: (_: unknown, r) => (
        <Tag color={CARD_STATUS_COLORS[r.gprs.status]} data-testid="card-status">
          {t(`status.${r.gprs.status}`)}
        </Tag>
      ),
    },
  ];

  const rows = list.data?.collector;
  const stat = list.data?.stat;
  const sunset = stat?.sunset ?? rows?.filter((r) => isSunsetNetwork(r.gprs.network)).length ?? 0;
  const first = selected[0];

  return (
    <Card title={t('title')} size="small" data-testid="recharge-pay-page">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
        <StatusSummary stat={stat} active={state.status} onPick={(status) => update({ status })} />
        {sunset > 0 && (
          <Alert
            type="warning"
            showIcon
            data-testid="sunset-notice"
            title={t('sunset.title')}
            description={t('sunset.body', { n: sunset })}
            action={
              state.network !== '2G' ? (
                <Button size="small" onClick={() => update({ network: '2G' })} data-testid="sunset-show">
                  {t('sunset.show')}
                </Button>
              ) : undefined
            }
          />
        )}
        <FilterRow>
          <ListSearch
            value={state.search}
            onSearch={(search) => update({ search })}
            placeholder={t('searchPlaceholder')}
            width={260}
            testId="card-search"
          />
          <EnumSelect
            id="card-status-filter"
            value={state.status}
            values={CARD_STATUSES}
            onChange={(status) => update({ status })}
            allLabel={t('allStatuses')}
            label={(s) => t(`status.${s}`)}
            width={150}
            testId="card-status-filter"
          />
          <EnumSelect
            value={state.network}
            values={NETWORK_TYPES}
            onChange={(network) => update({ network })}
            allLabel={t('allNetworks')}
            label={(n) => n}
            width={150}
            testId="card-network-filter"
          />
          <InputNumber
            min={0}
            max={999}
            precision={0}
            value={state.load === '' ? null : Number(state.load)}
            placeholder={t('loadPlaceholder')}
            onChange={(v) => update({ load: v === null || v === undefined ? '' : String(v) })}
            style={{ width: 150, maxWidth: '100%' }}
            data-testid="card-load-filter"
          />
        </FilterRow>
        <Flex wrap gap={8} align="center" data-testid="selection-bar">
          <Typography.Text data-testid="selection-count">{t('selected', { n: selected.length })}</Typography.Text>
          {first && !problem && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {cardType(first.gprs.cardType)} · {t('loadN', { n: first.load })} · {area(first.gprs.area)} ·{' '}
              {t(`state.${first.gprs.status === 'overdue' ? 'overdue' : 'active'}`)}
            </Typography.Text>
          )}
          {selected.length > 0 && (
            <Button size="small" onClick={() => setPicked(new Map())} data-testid="selection-clear">
              {t('clear')}
            </Button>
          )}
          <Tooltip
            title={
              !checkout
                ? t('checkoutUnavailable')
                : problem
                  ? t(`reason.${problem.reason}`, { pn: problem.pn ?? '' })
                  : undefined
            }
          >
            <Button
              type="primary"
              disabled={selected.length === 0 || problem !== null || !Checkout}
              onClick={() => setCheckoutOpen(true)}
              data-testid="recharge-button"
            >
              {t('recharge')}
            </Button>
          </Tooltip>
        </Flex>
        {problem && (
          <Alert
            type="error"
            showIcon
            data-testid="selection-problem"
            data-reason={problem.reason}
            title={t('notAllowed')}
            description={`${t(`reason.${problem.reason}`, { pn: problem.pn ?? '' })} ${t('rule')}`}
          />
        )}
        <PagedTable<GprsCollectorRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('empty')}
          rows={rows}
          total={list.data?.total}
          rowKey="pn"
          columns={columns}
          pinned={1}
          rowSelection={{
            selectedRowKeys: [...picked.keys()],
            preserveSelectedRowKeys: true,
            onSelect: (r, on) => pick([r], on),
            onSelectAll: (on, _all, changed) => pick(changed.filter(Boolean), on),
            getCheckboxProps: (r) => {
              const why = unselectableReason(r);
              return {
                disabled: why !== '',
                title: why ? t(`reason.${why}`, { pn: r.pn }) : undefined,
                'data-testid': 'card-pick',
              } as object;
            },
          }}
          pager={{ state, update, pageSizes: FLOW_CARD_PAGE_SIZES, showTotal: (n) => t('total', { n }) }}
          onRow={(r) => ({ 'data-testid': 'card-row', 'data-pn': r.pn, 'data-status': r.gprs.status })}
          data-testid="card-table"
        />
      </Space>
      {Checkout && (
        <Checkout pns={selected.map((r) => r.pn)} open={checkoutOpen} onClose={() => setCheckoutOpen(false)} />
      )}
    </Card>
  );
}
