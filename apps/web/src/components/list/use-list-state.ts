import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { nextListState, readListState, writeListState, type ListSpec, type PagedState } from './list-state';

export interface ListStateOptions {
  /** Address-bar parameters of the enclosing page that a change keeps (a detail page's `tab`). */
  keep?: readonly string[];
}

/**
 * A list's state from the address bar and the update that writes it back (replacing the
 * entry). The list owns the address bar: other parameters are dropped unless kept.
 */
export function useListState<S extends PagedState>(
  spec: ListSpec<S>,
  options: ListStateOptions = {},
): [S, (patch: Partial<S>) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(spec, params), [spec, params]);
  const update = (patch: Partial<S>) => {
    const next = writeListState(spec, nextListState(state, patch));
    const kept = new URLSearchParams();
    for (const k of options.keep ?? []) for (const v of params.getAll(k)) kept.append(k, v);
    for (const [k, v] of next) kept.append(k, v);
    setParams(kept, { replace: true });
  };
  return [state, update];
}
