/**
 * Calls of the operator's rechargeRemedy page (issue 14; protocol actions/recharge-orders.ts,
 * docs/operator/recharge-remedy.md). A remedy refreshes the list and the open order, whatever its
 * outcome (a refused remedy means the shown state is stale); none is retried.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ParamsOf, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';

export type RechargeListParams = Partial<ParsedParamsOf<Catalogue['queryRechargeOrders']>>;
export type RemedyParams = ParamsOf<Catalogue['remedyRechargeOrder']>;

export const rechargeKeys = {
  all: ['rechargeOrders'] as const,
  list: (p: RechargeListParams) => ['rechargeOrders', 'list', p] as const,
  detail: (id: number) => ['rechargeOrders', 'detail', id] as const,
};

export function useRechargeOrders(params: RechargeListParams) {
  return usePagedQuery(rechargeKeys.list(params), () => api.call('queryRechargeOrders', params));
}

export function useRechargeOrder(id: number | undefined) {
  return useQuery({
    queryKey: rechargeKeys.detail(id ?? 0),
    queryFn: () => api.call('queryRechargeOrder', { id: id! }),
    enabled: id !== undefined,
  });
}

export function useRemedyRechargeOrder() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: RemedyParams) => api.call('remedyRechargeOrder', p),
    onSettled: () => qc.invalidateQueries({ queryKey: rechargeKeys.all }),
  });
}
