/**
 * Calls of the recharge checkout (issue 15; protocol actions/payments.ts): the preview of a batch
 * (cards, batch rule, price), the order + checkout, and the order result, polled until final.
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { PayResult, RechargeArea, RechargePaymentMethod } from '@sunwatch/protocol';
import { api } from '../../../../app/api';
import { FINAL_STATES } from './model';

export interface QuoteInput {
  pns: string[];
  package: string;
  months: number;
  area: RechargeArea;
}

export function useRechargeQuote(input: QuoteInput, enabled: boolean) {
  return useQuery({
    queryKey: ['rechargeCheckout', 'quote', input],
    queryFn: () =>
      api.call('quoteRechargeOrder', {
        pns: input.pns.join(','),
        package: input.package,
        months: input.months,
        area: input.area,
      }),
    enabled: enabled && input.pns.length > 0 && input.package !== '',
    placeholderData: keepPreviousData,
  });
}

/** Orders the recharge, opens its checkout: the hosted page's URL. */
export function useCheckout() {
  return useMutation({
    mutationFn: async (p: QuoteInput & { method: RechargePaymentMethod; returnPath: string }) => {
      const order = await api.call('createRechargeOrder', {
        pns: p.pns.join(','),
        package: p.package,
        months: p.months,
        area: p.area,
        method: p.method,
      });
      const { payUrl } = await api.call('payOrder', {
        kind: 'recharge',
        orderNo: order.orderNo,
        method: p.method,
        returnPath: p.returnPath,
      });
      return { orderNo: order.orderNo, payUrl };
    },
  });
}

/** The order's outcome; polled every 2 s while not final. */
export function usePayResult(kind: 'recharge' | 'acceleration', orderNo: string) {
  return useQuery({
    queryKey: ['rechargeCheckout', 'result', kind, orderNo],
    queryFn: () => api.call('queryPayResult', { kind, orderNo }),
    enabled: orderNo !== '',
    refetchInterval: (q) => {
      const d = q.state.data as PayResult | undefined;
      return d && FINAL_STATES.includes(d.status) ? false : 2000;
    },
  });
}
