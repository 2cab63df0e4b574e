/**
 * The operator home's one call (issue 14; protocol actions/operator-home.ts, docs/operator/home.md),
 * refreshed every minute (the ingest figures change by the minute).
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../app/api';

export const operatorHomeKeys = {
  all: ['operatorHome'] as const,
};

export function useOperatorHome() {
  return useQuery({
    queryKey: operatorHomeKeys.all,
    queryFn: () => api.call('queryOperatorHome', {}),
    refetchInterval: 60_000,
  });
}
