import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { nextListState, readListState, writeListState, type ListSpec, type PagedState } from './list-state';

/** A list's state from the address bar and the update that writes it back (replacing the entry). */
export function useListState<S extends PagedState>(spec: ListSpec<S>): [S, (patch: Partial<S>) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(spec, params), [spec, params]);
  const update = (patch: Partial<S>) => setParams(writeListState(spec, nextListState(state, patch)), { replace: true });
  return [state, update];
}
