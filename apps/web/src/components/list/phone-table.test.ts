import { describe, expect, it } from 'vitest';
import type { TableColumnsType } from 'antd';
import { pinLeading, responsiveTable } from './phone-table';

const columns: TableColumnsType<{ a: string }> = [
  { key: 'star', width: 48 },
  { key: 'name', title: 'Name' },
  { key: 'power', title: 'Power', align: 'right' },
];

describe('phone tables', () => {
  it('pins the leading columns only', () => {
    expect(pinLeading(columns, 2).map((c) => c.fixed)).toEqual(['left', 'left', undefined]);
    expect(columns[0]!.fixed).toBeUndefined();
  });
  it('scrolls inside the table on a phone and fits the container on a desktop', () => {
    expect(responsiveTable(columns, true, 2).scroll).toEqual({ x: 'max-content' });
    expect(responsiveTable(columns, true, 2).columns!.map((c) => c.fixed)).toEqual(['left', 'left', undefined]);
    expect(responsiveTable(columns, false)).toEqual({ columns, scroll: { x: '100%' } });
  });
});
