/**
 * Tables on a phone: the columns scroll inside the table (`scroll.x`), never the page, and the
 * first columns (what names the row) stay pinned at the left while the figures scroll by.
 */
import type { TableColumnsType, TableProps } from 'antd';

/** Columns with the first `count` pinned left. The other columns are returned unchanged. */
export function pinLeading<T>(columns: TableColumnsType<T>, count: number): TableColumnsType<T> {
  return columns.map((c, i) => (i < count ? { ...c, fixed: 'left' as const } : c));
}

/**
 * Layout props of a list table: on a phone the leading columns pinned and a horizontal scroll
 * inside the table; on a desktop the table is as wide as its container (x: 100%, headers wrap)
 * so no column is cut off at the right, and only a table that cannot shrink that far scrolls
 * inside itself.
 */
export function responsiveTable<T>(
  columns: TableColumnsType<T>,
  phone: boolean,
  pinned = 1,
): Pick<TableProps<T>, 'columns' | 'scroll'> {
  return phone
    ? { columns: pinLeading(columns, pinned), scroll: { x: 'max-content' } }
    : { columns, scroll: { x: '100%' } };
}
