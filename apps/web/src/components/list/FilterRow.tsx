/**
 * The list kit's filter row: the search box, then the list's own filters (an enum filter is a
 * select with "all" first), wrapping on a phone. Each control writes the list state through the
 * `update` of `useListState`, so every change goes back to page 1 and lands in the address bar.
 *
 * Imported from './FilterRow' directly, not from the kit's barrel: antd's Input and Select would
 * otherwise ride along into every screen that uses the kit (see index.ts).
 */
import type { ReactNode } from 'react';
import { Flex, Input, Select } from 'antd';

/** The row: wraps, 8 px apart. */
export function FilterRow({ children }: { children: ReactNode }) {
  return (
    <Flex wrap gap={8}>
      {children}
    </Flex>
  );
}

/** The list's search box: sends the trimmed text on Enter or the search button; clearable. */
export function ListSearch({
  value,
  onSearch,
  placeholder,
  width,
  testId,
}: {
  /** The search text of the list state (the box's initial text). */
  value: string;
  onSearch: (search: string) => void;
  placeholder: string;
  width: number;
  testId: string;
}) {
  return (
    <Input.Search
      allowClear
      defaultValue={value}
      placeholder={placeholder}
      onSearch={(v) => onSearch(v.trim())}
      style={{ width, maxWidth: '100%' }}
      data-testid={testId}
    />
  );
}

/**
 * An enum filter: "all" (the value '') first, then each of `values` with its label. Pairs with a
 * list spec reading the parameter as one of `values` or '' (`enumParam(q.get(key), values, '')`).
 */
export function EnumSelect<const V extends string>({
  value,
  values,
  onChange,
  allLabel,
  label,
  width,
  testId,
  id,
}: {
  value: V | '';
  values: readonly V[];
  onChange: (value: V | '') => void;
  /** The label of '' (no filter). */
  allLabel: string;
  label: (value: V) => string;
  width: number;
  testId: string;
  /** The input's id (for a label or a browser flow). */
  id?: string;
}) {
  return (
    <Select<V | ''>
      {...(id ? { id } : {})}
      value={value}
      onChange={onChange}
      options={[{ value: '', label: allLabel }, ...values.map((v) => ({ value: v, label: label(v) }))]}
      style={{ width, maxWidth: '100%' }}
      data-testid={testId}
    />
  );
}
