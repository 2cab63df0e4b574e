import type { Catalogue, ParsedParamsOf } from '@sunwatch/protocol';

export type RecordListParams = Partial<ParsedParamsOf<Catalogue['queryMyRechargeOrders']>>;

/** Query keys of the rechargeRecord page. */
export const recordKeys = {
  all: ['rechargeRecords'] as const,
  list: (p: RecordListParams) => ['rechargeRecords', 'list', p] as const,
  detail: (id: number) => ['rechargeRecords', 'detail', id] as const,
};
