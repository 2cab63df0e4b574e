/**
 * /adminNewStatr/home/rechargeRemedy (issue 14, operator only): the platform's recharge orders,
 * searched (order number, PN, CCID, account), filtered (state, area, payment method, creation
 * days) and paged on the server, state in the address bar. An order opens in a drawer with its
 * cards and remedy history; a remedy corrects its state with a reason, offering only the moves
 * the protocol's transition table allows. docs/operator/recharge-remedy.md.
 */
import { useState } from 'react';
import { Button, Card, Space, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RechargeOrderRow } from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { RechargeOrderList } from '../../shared/recharge/OrderList';
import { rechargeOrderColumns } from '../../shared/recharge/order-columns';
import { useRechargeOrders } from '../api/queries';
import { OrderDrawer } from '../components/OrderDrawer';
import { RemedyDialog } from '../components/RemedyDialog';
import { RECHARGE_LIST_SPEC, rechargeListParams, remedyOptions } from '../model';

/** The list's test ids (`recharge-search`, …, `recharge-table`, rows `order-row`) and search box width. */
const LIST_VIEW = { testId: 'recharge', rowTestId: 'order-row', searchWidth: 280 };

export default function RechargeRemedyPage() {
  const { t } = useTranslation('operatorRecharge');
  const [state, update] = useListState(RECHARGE_LIST_SPEC);
  const list = useRechargeOrders(rechargeListParams(state));
  const [open, setOpen] = useState<number>();
  const [remedy, setRemedy] = useState<RechargeOrderRow>();
  const locale = bcp47(currentLocale());

  const col = rechargeOrderColumns<RechargeOrderRow>({ t, locale, testId: 'order', onOpen: setOpen });
  const columns: TableColumnsType<RechargeOrderRow> = [
    col.orderNo(190),
    col.status(110),
    col.account(130),
    col.cards(170),
    {
      title: t('col.package'),
      key: 'package',
      width: 140,
      render: (_: unknown, o) => t('packageMonths', { package: o.package, n: o.months }),
    },
    col.amount(120),
    {
      title: t('col.method'),
      key: 'method',
      width: 150,
      render: (_: unknown, o) => (
        <Space orientation="vertical" size={0}>
          <span>{o.method ? t(`method.${o.method}`) : '—'}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {o.area ? t(`area.${o.area}`) : ''}
          </Typography.Text>
        </Space>
      ),
    },
    col.created(140, 'col.created'),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 100,
      render: (_: unknown, o) => (
        <Button
          size="small"
          disabled={remedyOptions(o.status).length === 0}
          onClick={() => setRemedy(o)}
          data-testid="order-remedy"
        >
          {t('remedy.button')}
        </Button>
      ),
    },
  ];

  return (
    <Card title={t('title')} size="small" data-testid="recharge-page">
      <RechargeOrderList t={t} state={state} update={update} list={list} columns={columns} {...LIST_VIEW} />
      {open !== undefined && <OrderDrawer id={open} onClose={() => setOpen(undefined)} onRemedy={setRemedy} />}
      {remedy && <RemedyDialog order={remedy} onClose={() => setRemedy(undefined)} />}
    </Card>
  );
}
