/**
 * Calls of the rechargePay page (issue 15): the flow-card list is queryGprsCollector (the vendor's
 * GPRS datalogger list, vendor-actions.md §6) with the web's filters and the per-status counts.
 */
import type { Catalogue, ParsedParamsOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';

export type FlowCardListParams = Partial<ParsedParamsOf<Catalogue['queryGprsCollector']>>;

export const flowCardKeys = {
  all: ['flowCards'] as const,
  list: (p: FlowCardListParams) => ['flowCards', 'list', p] as const,
};

export function useFlowCards(params: FlowCardListParams) {
  return usePagedQuery(flowCardKeys.list(params), () => api.call('queryGprsCollector', params));
}
