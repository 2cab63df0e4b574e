import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';

/**
 * One page of a server-paged list: the previous page stays on screen while the next loads.
 * The key comes from the feature's `keys.ts` and holds the wire parameters.
 */
export function usePagedQuery<T>(queryKey: QueryKey, queryFn: () => Promise<T>, enabled = true) {
  return useQuery({ queryKey, queryFn, placeholderData: keepPreviousData, enabled });
}
