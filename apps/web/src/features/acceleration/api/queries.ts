/**
 * Calls of the acceleration pages (issue 15; protocol actions/acceleration.ts and payments.ts).
 * Buying = create the order, then payOrder for the hosted checkout; nothing is retried.
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { Catalogue, ParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { returnPathOf, type changeListParams, type orderListParams, type quoteParams } from '../model';

type OrderParams = ReturnType<typeof orderListParams>;
type ChangeParams = ReturnType<typeof changeListParams>;
type QuoteParams = NonNullable<ReturnType<typeof quoteParams>>;
export type CreateParams = ParamsOf<Catalogue['createAccelerationOrder']>;

export const accelerationKeys = {
  all: ['acceleration'] as const,
  orders: (p: OrderParams) => ['acceleration', 'orders', p] as const,
  changes: (p: ChangeParams) => ['acceleration', 'changes', p] as const,
  order: (orderNo: string) => ['acceleration', 'order', orderNo] as const,
  candidates: (search: string) => ['acceleration', 'candidates', search] as const,
  quote: (p: QuoteParams | undefined) => ['acceleration', 'quote', p ?? null] as const,
};

export function useAccelerationOrders(p: OrderParams, enabled: boolean) {
  return usePagedQuery(accelerationKeys.orders(p), () => api.call('queryAccelerationOrders', p), enabled);
}

export function useAccelerationChanges(p: ChangeParams, enabled: boolean) {
  return usePagedQuery(accelerationKeys.changes(p), () => api.call('queryAccelerationChanges', p), enabled);
}

/** One order (the result after the checkout), polled while its payment or interval change is pending. */
export function useAccelerationOrder(orderNo: string | undefined) {
  return useQuery({
    queryKey: accelerationKeys.order(orderNo ?? ''),
    queryFn: () => api.call('queryAccelerationOrder', { orderNo: orderNo! }),
    enabled: !!orderNo,
    refetchInterval: (q) => {
      const o = q.state.data;
      return o && (o.status === 'unpaid' || o.change === 'pending') ? 3000 : false;
    },
  });
}

export function useAccelerationCandidates(search: string) {
  return useQuery({
    queryKey: accelerationKeys.candidates(search),
    queryFn: () => api.call('queryAccelerationCandidates', { pagesize: 20, ...(search ? { search } : {}) }),
    placeholderData: keepPreviousData,
  });
}

export function useAccelerationQuote(p: QuoteParams | undefined) {
  return useQuery({
    queryKey: accelerationKeys.quote(p),
    queryFn: () => api.call('queryAccelerationQuote', p!),
    enabled: p !== undefined,
    retry: false,
  });
}

/** Creates the order and opens the provider's checkout: resolves with the checkout address. */
export function useBuyAcceleration() {
  return useMutation({
    /** `buyPath`: the purchase page's address; the checkout returns to its record page showing the order. */
    mutationFn: async (v: { order: CreateParams; method: string; buyPath: string }) => {
      const created = await api.call('createAccelerationOrder', v.order);
      const pay = await api.call('payOrder', {
        kind: 'acceleration',
        orderNo: created.orderNo,
        method: v.method,
        returnPath: returnPathOf(v.buyPath, created.orderNo),
      });
      return { orderNo: created.orderNo, payUrl: pay.payUrl };
    },
  });
}
