/**
 * A minimal rechargePay page (issue 15): the PNs of the cards to recharge, then the checkout
 * dialog. The flow-card list (rechargePay of the flow-cards work) replaces it and opens the same
 * CheckoutDialog for the cards selected there.
 */
import { useState } from 'react';
import { Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CheckoutDialog } from '../CheckoutDialog';

export default function RechargeEntryPage() {
  const { t } = useTranslation('rechargeCheckout');
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const pns = [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
  return (
    <div style={{ maxWidth: 640 }}>
      <Typography.Paragraph>{t('entry.hint')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('entry.placeholder')}
          aria-label={t('entry.placeholder')}
          data-testid="recharge-pns"
        />
        <Button type="primary" disabled={pns.length === 0} onClick={() => setOpen(true)} data-testid="recharge-open">
          {t('entry.open')}
        </Button>
      </Space.Compact>
      <CheckoutDialog pns={pns} open={open} onClose={() => setOpen(false)} />
    </div>
  );
}
